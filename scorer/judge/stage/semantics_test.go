package stage

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/vertex"
)

// TestJudgeMetricSemantics checks that every judge metric declares a unit
// and a direction, and the ones whose scale the docs give: ratings carry
// their bounds, yes/no verdicts pass at 1.
func TestJudgeMetricSemantics(t *testing.T) {
	deps := judgemetrictest.Deps(judgemetrictest.NewJudge(), judgemetrictest.NewSanitizers(judgemetrictest.Envelope{}))
	r := scorer.NewRegistry()
	if err := RegisterMetrics(r, deps); err != nil {
		t.Fatal(err)
	}
	want := map[string]scorer.Semantics{
		"coherence":                 scorer.Rating(scorer.HigherIsBetter, 1, 5, ""),
		"verbosity":                 scorer.Rating(scorer.DirectionNone, -2, 2, ""),
		"safety":                    scorer.Ratio(scorer.HigherIsBetter, "").WithPass(">=", 1),
		"safety_v1":                 scorer.Ratio(scorer.HigherIsBetter, "").WithPass(">=", 1),
		"hallucination_v1":          scorer.Ratio(scorer.HigherIsBetter, ""),
		"hallucinations_v1":         scorer.Ratio(scorer.HigherIsBetter, ""),
		"ragas_agent_goal_accuracy": scorer.Ratio(scorer.HigherIsBetter, "").WithPass(">=", 1),
	}
	for _, name := range r.Names() {
		if name == vertex.CustomType {
			continue // a template of the user's: its rubric's keys set the scale
		}
		ms, err := r.Build([]scorer.MetricConfig{{Name: name}})
		if err != nil {
			ms, err = r.Build([]scorer.MetricConfig{{Name: name, Params: map[string]any{"rubrics": []any{"x"}}}})
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		s := scorer.SemanticsOf(ms[0])
		if s.Unit == scorer.UnitNone || s.Description == "" {
			t.Errorf("%s declares no unit or description: %+v", name, s)
		}
		if s.Direction == scorer.DirectionNone && name != "verbosity" {
			t.Errorf("%s declares no direction", name)
		}
		if w, ok := want[name]; ok {
			if s.Direction != w.Direction || s.Unit != w.Unit || s.Min != w.Min || s.Max != w.Max ||
				(s.Pass == nil) != (w.Pass == nil) || s.Pass != nil && *s.Pass != *w.Pass {
				t.Errorf("%s: %+v (pass %+v), want %+v (pass %+v)", name, s, s.Pass, w, w.Pass)
			}
		}
	}
}
