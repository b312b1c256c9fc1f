package ragas

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Live runs get their reference topics from the metric's config: by agent,
// by service, or for every run; a run's own topics come first.
func TestTopicsFromConfig(t *testing.T) {
	params := map[string]any{
		ParamReferenceTopics: []any{"anything"},
		ParamTopicsByAgent:   map[string]any{"billing-agent": []any{"invoices"}},
		ParamTopicsByService: map[string]any{"shop": []any{"orders", "shipping"}},
	}
	live := func(agent, service string) *scorer.Instance {
		return scorer.FromTrajectory(&agentrun.Trajectory{Agent: agent, Service: service, Input: "Where is my order?", Output: "Tomorrow."})
	}
	own := live("billing-agent", "shop")
	own.ReferenceTopics, own.Has = []string{"case topic"}, own.Has|scorer.InReferenceTopics
	for _, tt := range []struct {
		name string
		in   *scorer.Instance
		want string
		from string
	}{
		{"by agent", live("billing-agent", "shop"), "invoices", "agent"},
		{"by service", live("other", "shop"), "shipping", "service"},
		{"default", live("other", "other"), "anything", "config"},
		{"the run's own", own, "case topic", "run"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(`{"topics": ["Orders"]}`, refused(false), `{"classifications": [true]}`)
			m := e.Build(t, scorer.MetricConfig{Name: MetricTopicAdherence, Params: params})
			if miss := tt.in.Missing(m.Needs()); miss != 0 {
				t.Fatalf("not applicable: missing %b", miss)
			}
			res, err := m.Score(t.Context(), tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if res.Details["reference_topics_from"] != tt.from {
				t.Errorf("topics from %v, want %s", res.Details["reference_topics_from"], tt.from)
			}
			if p := e.Requests()[2].Prompt; !strings.Contains(p, tt.want) {
				t.Errorf("classification prompt lacks %q:\n%s", tt.want, p)
			}
		})
	}
	// without any topics a run is not applicable, not a silent zero
	e := newEnv()
	m := e.Build(t, scorer.MetricConfig{Name: MetricTopicAdherence})
	if live("a", "b").Missing(m.Needs()) == 0 {
		t.Error("a run without topics is applicable")
	}
}
