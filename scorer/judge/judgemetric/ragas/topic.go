package ragas

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// ParamMode selects the topic adherence score: "f1" (default),
// "precision" or "recall".
const ParamMode = "mode"

// eps is ragas' guard against division by zero in topic adherence.
const eps = 1e-10

// topicAdherence is ragas_topic_adherence (metrics.md §8.3, ragas
// _topic_adherence.py TopicAdherenceScore): does the agent answer only
// questions on the reference topics? Calls: 1 topic extraction from the
// workflow + 1 refusal check per extracted topic + 1 classification of
// the topics against the reference topics.
//
// Formula, per extracted topic: answered = not refused, in_ref = the
// classification. TP = Σ answered ∧ in_ref, FP = Σ answered ∧ ¬in_ref,
// FN = Σ ¬answered ∧ in_ref; precision = TP/(TP+FP+1e-10), recall =
// TP/(TP+FN+1e-10), F1 = 2PR/(P+R+1e-10); the score is the one selected by
// mode. No extracted topic gives 0 (all counts 0), as in ragas, without
// the classification call. Classifications accept true or the strings
// "true"/"1"/"yes" (anything else false); a list whose length differs
// from the number of topics is an invalid_response error.
type topicAdherence struct {
	judgeBase
	mode   string
	topics configuredTopics
}

func newTopicAdherence(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := judgemetric.NewBase(MetricTopicAdherence, p, deps, ParamMode, ParamReferenceTopics, ParamTopicsByAgent, ParamTopicsByService)
	if err != nil {
		return nil, err
	}
	topics, err := readConfiguredTopics(p)
	if err != nil {
		return nil, err
	}
	mode, err := p.String(ParamMode, "f1")
	if err != nil {
		return nil, err
	}
	switch mode {
	case "f1", "precision", "recall":
	default:
		return nil, fmt.Errorf("param %q: must be f1, precision or recall, got %q", ParamMode, mode)
	}
	return &topicAdherence{judgeBase: judgeBase{b}, mode: mode, topics: topics}, nil
}

// Needs returns the prompt (ragas needs only the user_input messages and
// the reference topics), and the run's own reference topics when no
// topics are configured.
func (m *topicAdherence) Needs() scorer.Inputs {
	if m.topics.any() {
		return scorer.InPrompt
	}
	return scorer.InReferenceTopics | scorer.InPrompt
}

// Score extracts the topics, checks each for a refusal and classifies
// them against the reference topics.
func (m *topicAdherence) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	refTopics, from := m.topics.of(in)
	if len(refTopics) == 0 {
		return scorer.Result{}, fmt.Errorf("no reference topics for this run: %w", scorer.ErrNotApplicable)
	}
	c := m.Caller()
	flow := workflow(in)
	topics, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
		return topicExtraction.request(struct {
			UserInput string `json:"user_input"`
		}{s.UntrustedPieces(FieldConversation, flow)})
	}, parseTopics)
	if err != nil {
		return scorer.Result{}, err
	}
	answered := make([]bool, len(topics))
	for i, t := range topics {
		refused, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
			return topicRefused.request(struct {
				UserInput string `json:"user_input"`
				Topic     string `json:"topic"`
			}{s.UntrustedPieces(FieldConversation, flow), s.Untrusted(FieldTopics, t)})
		}, parseRefused)
		if err != nil {
			return scorer.Result{}, err
		}
		answered[i] = !refused
	}
	var inRef []bool
	if len(topics) > 0 {
		inRef, err = judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
			untrusted := func(field string, texts []string) []string {
				out := make([]string, len(texts))
				for i, t := range texts {
					out[i] = s.Untrusted(field, t)
				}
				return out
			}
			return topicClassification.request(struct {
				ReferenceTopics []string `json:"reference_topics"`
				Topics          []string `json:"topics"`
			}{untrusted(FieldReference, refTopics), untrusted(FieldTopics, topics)})
		}, func(ans string) ([]bool, error) { return parseClassifications(ans, len(topics)) })
		if err != nil {
			return scorer.Result{}, err
		}
	}
	// TP, FP and FN over the topics, and ragas' formulas with eps = 1e-10.
	var tp, fp, fn int
	lines := []string{"no topics found in the conversation"}
	if len(topics) > 0 {
		lines = make([]string, len(topics))
	}
	for i, t := range topics {
		switch {
		case answered[i] && inRef[i]:
			tp++
		case answered[i]:
			fp++
		case inRef[i]:
			fn++
		}
		a, o := "answered", "on reference topics"
		if !answered[i] {
			a = "refused"
		}
		if !inRef[i] {
			o = "off reference topics"
		}
		lines[i] = fmt.Sprintf("%s: %s, %s", t, a, o)
	}
	p := float64(tp) / (float64(tp+fp) + eps)
	r := float64(tp) / (float64(tp+fn) + eps)
	f1 := 2 * p * r / (p + r + eps)
	score := f1
	switch m.mode {
	case "precision":
		score = p
	case "recall":
		score = r
	}
	return c.Finish(scorer.Result{
		Score:       score,
		Explanation: judgemetric.Explanation(strings.Join(lines, "\n")),
		Details: map[string]any{
			"tp": tp, "fp": fp, "fn": fn,
			"precision": p, "recall": r, "f1": f1,
			"topics": len(topics), "mode": m.mode, "reference_topics_from": from,
		},
	}), nil
}
