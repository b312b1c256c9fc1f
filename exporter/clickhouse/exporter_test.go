package clickhouse

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/scorer"
)

func TestInsertAllTables(t *testing.T) {
	s := newTestServer(t)
	h := startExporter(t, s.config(t))
	const n = 250
	for i := range n {
		if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.x.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for tb := range numTables {
		want := n * rowsPerEvaluation[tb]
		waitFor(t, 30*time.Second, tb.String(), func() bool {
			return s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s", s.db, tb)) >= want
		})
		if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s FINAL", s.db, tb)); got != want {
			t.Errorf("%s: %d rows, want %d", tb, got, want)
		}
		if got := h.rows(tb.String(), exporter.OutcomeSent); got != want {
			t.Errorf("%s: records_total{sent} = %d, want %d", tb, got, want)
		}
	}
	if got := s.count(t, "SELECT count() FROM "+s.db+".schema_migrations WHERE version = 1"); got != 1 {
		t.Errorf("schema_migrations has %d rows for version 1", got)
	}

	// Spot-check values of one run.
	var (
		agent, version, judge string
		score                 float64
		tokens                uint64
	)
	row := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT agent, service_version, judge_model, score, judge_input_tokens FROM %s.evaluations WHERE trace_id = '%032x' AND metric = 'hallucination_v1'", s.db, 8))
	if err := row.Scan(&agent, &version, &judge, &score, &tokens); err != nil {
		t.Fatal(err)
	}
	if agent != "refunds" || version != "1.1.0" || judge != "judge-1" || score != 0.7 || tokens != 500 {
		t.Errorf("run 7: agent=%q version=%q judge=%q score=%v tokens=%d", agent, version, judge, score, tokens)
	}
	var names []string
	var inTok uint64
	if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT tool_names, input_tokens FROM %s.trajectories WHERE trace_id = '%032x'", s.db, 8)).Scan(&names, &inTok); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(names) != "[lookup_order refund lookup_order]" || inTok != 250 {
		t.Errorf("trajectory: tool_names=%v input_tokens=%d", names, inTok)
	}
	if got := s.count(t, "SELECT count() FROM "+s.db+".tool_calls WHERE repeated = 1 AND failed = 1 AND tool = 'lookup_order'"); got != n {
		t.Errorf("repeated failed lookups = %d, want %d", got, n)
	}
	for decision, want := range map[string]int{DecisionScored: 2 * n, DecisionNotApplicable: n, DecisionError: n} {
		if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.eval_decisions WHERE decision = '%s'", s.db, decision)); got != want {
			t.Errorf("decision %s: %d rows, want %d", decision, got, want)
		}
	}
}

// TestJudgeFollowUpAndLedger: a judge follow-up evaluation adds its scores
// (with the judge's cost) and its ledger decisions, but no second
// trajectory or tool-call rows for the run.
func TestJudgeFollowUpAndLedger(t *testing.T) {
	s := newTestServer(t)
	h := startExporter(t, s.config(t))
	run := testEvaluation(0)
	run.Decisions = []scorer.Decision{
		{Metric: "coherence", Judge: "primary", Outcome: scorer.OutcomeQueued},
		{Metric: "politeness", Judge: "primary", Outcome: scorer.OutcomeSampledOut},
	}
	follow := &scorer.Evaluation{
		Trajectory: run.Trajectory,
		FollowUp:   true,
		Results: []scorer.Result{{Metric: "coherence", Score: 4, Label: "Mostly coherent",
			Judge: &scorer.JudgeUsage{Judge: "primary", Provider: "openai", Model: "judge-1", InputTokens: 300, OutputTokens: 20, CostUSD: 0.00038, Calls: 1, Attempts: 2}},
			{Metric: "fluency", Score: 5, Judge: &scorer.JudgeUsage{Judge: "primary", Provider: "openai", Model: "judge-1", Cached: true}}},
		Decisions: []scorer.Decision{
			{Metric: "coherence", Judge: "primary", Outcome: scorer.OutcomeScored},
			{Metric: "fluency", Judge: "primary", Outcome: scorer.OutcomeCached},
			{Metric: "safety", Judge: "primary", Outcome: scorer.OutcomeJudgeError, Reason: "rate_limited"},
		},
	}
	for _, ev := range []*scorer.Evaluation{run, follow} {
		if err := h.x.Export(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.x.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	trace := run.Trajectory.TraceID
	want := map[string]int{
		"trajectories":   1,
		"tool_calls":     3,
		"evaluations":    4,             // two inline scores, one judged and one cached judge score
		"eval_decisions": 4 + 3 + 1 + 1, // run: scored x2, n/a, error, queued, sampled_out; follow-up: scored x2, judge_error
	}
	for tb, n := range want {
		q := fmt.Sprintf("SELECT count() FROM %s.%s WHERE trace_id = '%s'", s.db, tb, trace)
		waitFor(t, 30*time.Second, tb, func() bool { return s.count(t, q) >= n })
		if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s FINAL WHERE trace_id = '%s'", s.db, tb, trace)); got != n {
			t.Errorf("%s: %d rows, want %d", tb, got, n)
		}
	}
	// A judged result reports its cost; a cached one says so, at no cost.
	for _, c := range []struct {
		metric string
		cost   float64
		cached uint8
	}{{"coherence", 0.00038, 0}, {"fluency", 0, 1}} {
		var cost float64
		var cached uint8
		if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
			"SELECT judge_cost_usd, judge_cached FROM %s.evaluations WHERE trace_id = '%s' AND metric = '%s'", s.db, trace, c.metric)).Scan(&cost, &cached); err != nil {
			t.Fatal(err)
		}
		if cost != c.cost || cached != c.cached {
			t.Errorf("%s: judge_cost_usd = %v, judge_cached = %d; want %v, %d", c.metric, cost, cached, c.cost, c.cached)
		}
	}
	var reason string
	if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT reason FROM %s.eval_decisions WHERE trace_id = '%s' AND metric = 'safety' AND decision = 'judge_error'", s.db, trace)).Scan(&reason); err != nil {
		t.Fatal(err)
	}
	if reason != "rate_limited" {
		t.Errorf("judge_error reason = %q", reason)
	}
}
