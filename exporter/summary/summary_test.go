package summary

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

func TestSummaryStatistics(t *testing.T) {
	s := New()
	scores := []float64{0.5, 1, 0, 0.25}
	for i, v := range scores {
		e := &scorer.Evaluation{
			Trajectory: &agentrun.Trajectory{Failed: i == 0},
			Results:    []scorer.Result{{Metric: "tool_error_rate", Score: v}, {Metric: "latency", Score: 2}},
		}
		// tool_error_rate's rule (<= 0) passes only the zero score.
		passed := v <= 0
		e.Results[0].Passed = &passed
		if i == 3 {
			e.NotApplicable = []string{"tool_args_valid"}
			e.Errors = []scorer.MetricError{{Metric: "tool_args_valid", Reason: "error"}}
		}
		if err := s.Export(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	tab := s.Snapshot()
	if tab.Runs != 4 || tab.Failed != 1 {
		t.Fatalf("runs/failed = %d/%d, want 4/1", tab.Runs, tab.Failed)
	}
	if len(tab.Rows) != 3 || tab.Rows[1].Metric != "tool_args_valid" || tab.Rows[2].Metric != "tool_error_rate" {
		t.Fatalf("rows = %+v", tab.Rows)
	}
	if r := tab.Rows[2]; r.PassRate != 0.25 {
		t.Errorf("tool_error_rate pass rate = %v, want 1 of 4", r.PassRate)
	}
	if r := tab.Rows[0]; !math.IsNaN(r.PassRate) {
		t.Errorf("latency (no pass rule) pass rate = %v, want NaN", r.PassRate)
	}
	r := tab.Rows[2]
	// mean 0.4375; sample variance = sum((x-mean)^2)/(n-1)
	var ss float64
	for _, v := range scores {
		ss += (v - 0.4375) * (v - 0.4375)
	}
	wantStd := math.Sqrt(ss / 3)
	if r.Count != 4 || math.Abs(r.Mean-0.4375) > 1e-12 || math.Abs(r.Std-wantStd) > 1e-12 || r.Min != 0 || r.Max != 1 {
		t.Fatalf("stats = %+v, want mean 0.4375 std %v", r, wantStd)
	}
	na := tab.Rows[1]
	if na.Count != 0 || na.NotApplicable != 1 || na.Errors != 1 {
		t.Fatalf("n/a row = %+v", na)
	}
	var b strings.Builder
	if err := tab.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"tool_error_rate", "0.4375", "25.0%", "runs: 4, failed: 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestSummarySingleScoreHasNoStd(t *testing.T) {
	s := New()
	_ = s.Export(context.Background(), &scorer.Evaluation{Results: []scorer.Result{{Metric: "latency", Score: 2}}})
	if r := s.Snapshot().Rows[0]; !math.IsNaN(r.Std) {
		t.Fatalf("std with one score = %v, want NaN (absent)", r.Std)
	}
}

// Judge metrics report through the ledger: judge errors and runs a judge
// metric could not judge are counted, not left out of the table.
func TestSummaryCountsJudgeDecisions(t *testing.T) {
	s := New()
	evs := []*scorer.Evaluation{
		{Decisions: []scorer.Decision{{Metric: "coherence", Outcome: scorer.OutcomeQueued}}},
		{FollowUp: true, Results: []scorer.Result{{Metric: "coherence", Score: 4}},
			Decisions: []scorer.Decision{{Metric: "coherence", Outcome: scorer.OutcomeScored}}},
		{FollowUp: true, Decisions: []scorer.Decision{{Metric: "coherence", Outcome: scorer.OutcomeJudgeError, Reason: "invalid_response"}}},
		{Decisions: []scorer.Decision{{Metric: "coherence", Outcome: scorer.OutcomeNotApplicable}}},
		{Decisions: []scorer.Decision{{Metric: "coherence", Outcome: scorer.OutcomeSampledOut}}},
		{Decisions: []scorer.Decision{{Metric: "groundedness", Outcome: scorer.OutcomeJudgeError}}},
	}
	for _, e := range evs {
		if err := s.Export(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	tab := s.Snapshot()
	want := []Row{
		{Metric: "coherence", Count: 1, NotApplicable: 1, Errors: 1, Skipped: 1},
		{Metric: "groundedness", Errors: 1},
	}
	if len(tab.Rows) != len(want) {
		t.Fatalf("rows %+v", tab.Rows)
	}
	for i, w := range want {
		r := tab.Rows[i]
		if r.Metric != w.Metric || r.Count != w.Count || r.NotApplicable != w.NotApplicable || r.Errors != w.Errors || r.Skipped != w.Skipped {
			t.Errorf("row %+v, want %+v", r, w)
		}
	}
	var b strings.Builder
	if err := tab.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "groundedness") || !strings.Contains(b.String(), "skipped") {
		t.Errorf("table:\n%s", b.String())
	}
}

// People's feedback is neither a run nor a score.
func TestSummaryIgnoresFeedback(t *testing.T) {
	s := New()
	_ = s.Export(context.Background(), &scorer.Evaluation{Feedback: []scorer.Feedback{{TraceID: "t", Metric: "coherence", Label: "pass"}}})
	if tb := s.Snapshot(); tb.Runs != 0 || len(tb.Rows) != 0 {
		t.Fatalf("feedback counted: %+v", tb)
	}
}
