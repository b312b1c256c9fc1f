package session

import (
	"slices"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

func TestEvaluate(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	for _, tc := range []struct {
		name  string
		turns []agentrun.Turn
		want  map[string]float64 // metric → score
		na    []string
		// first failed turn (1-based) and its trace id, when one failed
		firstFailed int
		firstTrace  string
	}{
		{
			name: "three turns, the second failed, 2 of 5 tool calls errored",
			turns: []agentrun.Turn{
				{TraceID: "a", Start: at(0), End: at(4), ToolCalls: 2},
				{TraceID: "b", Start: at(30), End: at(31), Failed: true, ErrorType: "timeout", ToolCalls: 1, ToolErrors: 1},
				{TraceID: "c", Start: at(90), End: at(95), ToolCalls: 2, ToolErrors: 1},
			},
			want:        map[string]float64{MetricTurns: 3, MetricFailed: 1, MetricToolErrorRate: 0.4, MetricDuration: 95},
			firstFailed: 2, firstTrace: "b",
		},
		{
			name:  "one clean turn without tools",
			turns: []agentrun.Turn{{TraceID: "a", Start: at(0), End: at(2)}},
			want:  map[string]float64{MetricTurns: 1, MetricFailed: 0, MetricDuration: 2},
			na:    []string{MetricToolErrorRate},
		},
		{
			name:  "times unknown",
			turns: []agentrun.Turn{{TraceID: "a", ToolCalls: 1}, {TraceID: "b", Failed: true}},
			want:  map[string]float64{MetricTurns: 2, MetricFailed: 1, MetricToolErrorRate: 0},
			na:    []string{MetricDuration}, firstFailed: 2, firstTrace: "b",
		},
		{
			name: "a later turn ends before an earlier one: the latest end counts",
			turns: []agentrun.Turn{
				{TraceID: "a", Start: at(0), End: at(100)},
				{TraceID: "b", Start: at(10), End: at(20)},
			},
			want: map[string]float64{MetricTurns: 2, MetricFailed: 0, MetricDuration: 100},
			na:   []string{MetricToolErrorRate},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &agentrun.Session{ID: "s", Turns: tc.turns, CloseReason: agentrun.SessionClosedIdle}
			ev := Evaluate(s)
			if ev.Session != s || ev.Trajectory != nil {
				t.Fatal("evaluation does not carry the session alone")
			}
			got := map[string]float64{}
			var failed scorer.Result
			for _, r := range ev.Results {
				got[r.Metric] = r.Score
				// session_failed and session_tool_error_rate pass at 0; the others have no rule
				switch {
				case r.Metric != MetricFailed && r.Metric != MetricToolErrorRate:
					if r.Passed != nil {
						t.Errorf("%s passed = %v, want no verdict", r.Metric, *r.Passed)
					}
				case r.Passed == nil || *r.Passed != (r.Score == 0):
					t.Errorf("%s = %v passed %v, want passed %v", r.Metric, r.Score, r.Passed, r.Score == 0)
				}
				if r.Metric == MetricFailed {
					failed = r
				}
			}
			if len(got) != len(tc.want) {
				t.Errorf("results %v, want %v", got, tc.want)
			}
			for m, w := range tc.want {
				if g, ok := got[m]; !ok || g != w {
					t.Errorf("%s = %v (present %v), want %v", m, g, ok, w)
				}
			}
			if !slices.Equal(ev.NotApplicable, tc.na) {
				t.Errorf("not applicable %v, want %v", ev.NotApplicable, tc.na)
			}
			if tc.firstFailed > 0 {
				if failed.Label != "failed" || failed.Details["first_failed_turn"] != tc.firstFailed || failed.Details["first_failed_trace_id"] != tc.firstTrace {
					t.Errorf("session_failed %q details %v, want turn %d trace %s", failed.Label, failed.Details, tc.firstFailed, tc.firstTrace)
				}
			} else if failed.Label != "ok" {
				t.Errorf("session_failed label %q, want ok", failed.Label)
			}
		})
	}
}

// TestMetricsSemantics checks the units and directions the exporters are
// told for the session metrics.
func TestMetricsSemantics(t *testing.T) {
	want := map[string]struct {
		unit scorer.Unit
		dir  scorer.Direction
	}{
		MetricTurns:         {scorer.UnitCount, scorer.DirectionNone},
		MetricFailed:        {scorer.UnitRatio, scorer.LowerIsBetter},
		MetricToolErrorRate: {scorer.UnitRatio, scorer.LowerIsBetter},
		MetricDuration:      {scorer.UnitSeconds, scorer.LowerIsBetter},
	}
	ms := Metrics()
	if len(ms) != len(want) {
		t.Fatalf("%d metrics, want %d", len(ms), len(want))
	}
	for _, m := range ms {
		s := scorer.SemanticsOf(m)
		if w := want[m.Name()]; s.Unit != w.unit || s.Direction != w.dir {
			t.Errorf("%s: unit %s direction %s, want %s %s", m.Name(), s.Unit, s.Direction, w.unit, w.dir)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", m.Name(), err)
		}
	}
}
