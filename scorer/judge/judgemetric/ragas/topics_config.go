package ragas

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Parameters of ragas_topic_adherence that give live runs their reference
// topics.
const (
	// ParamReferenceTopics lists the topics of every run that has none of
	// its own and matches no agent or service below.
	ParamReferenceTopics = "reference_topics"
	// ParamTopicsByAgent maps an agent name (gen_ai.agent.name) to its
	// topics.
	ParamTopicsByAgent = "reference_topics_by_agent"
	// ParamTopicsByService maps a service name (service.name) to its
	// topics.
	ParamTopicsByService = "reference_topics_by_service"
)

// configuredTopics are the reference topics a metric's params give.
type configuredTopics struct {
	all       []string
	byAgent   map[string][]string
	byService map[string][]string
}

func (c configuredTopics) any() bool {
	return len(c.all) > 0 || len(c.byAgent) > 0 || len(c.byService) > 0
}

// of returns the reference topics of in and where they come from: the
// run's own (a dataset row, or the reference store's case for a canary
// run or session), else its agent's, else its service's (a session's
// are its first turn's), else the metric's reference_topics; nil when
// none applies.
func (c configuredTopics) of(in *scorer.Instance) ([]string, string) {
	if in.Has&scorer.InReferenceTopics != 0 && len(in.ReferenceTopics) > 0 {
		return in.ReferenceTopics, "run"
	}
	var agent, service string
	if t := in.Trajectory; t != nil {
		agent, service = t.Agent, t.Service
	} else if s := in.Session; s != nil {
		agent, service = s.Agent, s.Service
	}
	if ts, ok := c.byAgent[agent]; ok && agent != "" {
		return ts, "agent"
	}
	if ts, ok := c.byService[service]; ok && service != "" {
		return ts, "service"
	}
	if len(c.all) > 0 {
		return c.all, "config"
	}
	return nil, ""
}

// readConfiguredTopics reads the topic params.
func readConfiguredTopics(p scorer.Params) (configuredTopics, error) {
	var c configuredTopics
	var err error
	if v, ok := p[ParamReferenceTopics]; ok && v != nil {
		if c.all, err = topicList(v); err != nil {
			return c, fmt.Errorf("param %q: %w", ParamReferenceTopics, err)
		}
	}
	if c.byAgent, err = topicMap(p, ParamTopicsByAgent); err != nil {
		return c, err
	}
	c.byService, err = topicMap(p, ParamTopicsByService)
	return c, err
}

// topicMap reads a map from names to topic lists.
func topicMap(p scorer.Params, key string) (map[string][]string, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("param %q: must map names to lists of topics, got %T", key, v)
	}
	out := make(map[string][]string, len(m))
	for name, tv := range m {
		ts, err := topicList(tv)
		if err != nil {
			return nil, fmt.Errorf("param %q: %q: %w", key, name, err)
		}
		out[name] = ts
	}
	return out, nil
}

// topicList reads a non-empty list of non-empty strings.
func topicList(v any) ([]string, error) {
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return nil, fmt.Errorf("must be a non-empty list of topics, got %T", v)
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok || s == "" {
			return nil, fmt.Errorf("item %d: must be a non-empty string", i)
		}
		out[i] = s
	}
	return out, nil
}
