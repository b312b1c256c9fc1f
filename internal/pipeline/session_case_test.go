package pipeline

import (
	"context"
	"math"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// TestCanarySessionScoredAsEvalCase sends a two-turn canary conversation
// naming an ADK eval case of two invocations through the real OTel SDK:
// the closed session is scored as the case, with ADK's per-invocation
// metrics averaged over its invocations, exactly as `sidecar eval` scores
// the same runs joined to the same eval set.
func TestCanarySessionScoredAsEvalCase(t *testing.T) {
	evalset := filepath.Join("testdata", "trip.evalset.json")
	cfg := testConfig(t.TempDir())
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false
	cfg.Scorer.References.Files = []string{evalset}
	cfg.Sessions.Enabled = true
	c := &capture{}
	p, ctx := startOnline(t, cfg, Options{Extra: []exporter.Exporter{c}})
	tp := sdkTracerProvider(t, ctx, p, "weather-agent")
	tracer := tp.Tracer("canary-session-test")
	t0 := time.Now().Add(-time.Minute)
	// the second turn is sent first: turns pair with invocations by start
	sendTripTurn(ctx, tracer, t0.Add(10*time.Second), "And in Rome?", "Milan", "Rome: 24°C and sunny.")
	sendTripTurn(ctx, tracer, t0, "Weather in Paris?", "Paris", "It is sunny in Paris.")
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	var runs []*agentrun.Trajectory
	var sess *scorer.Evaluation
	for _, ev := range c.evs {
		switch {
		case ev.Session != nil:
			sess = ev
		case !ev.FollowUp:
			runs = append(runs, ev.Trajectory)
		}
	}
	if sess == nil || len(runs) != 2 {
		t.Fatalf("%d runs, session %v", len(runs), sess != nil)
	}
	if sess.Session.CaseID != "trip-1" {
		t.Errorf("session case %q, want trip-1", sess.Session.CaseID)
	}
	got := map[string]float64{}
	for _, r := range sess.Results {
		got[r.Metric] = r.Score
	}
	// Per invocation: Paris matches (1), Milan is not Rome (0), mean 0.5.
	// ROUGE-1 F: invocation 1 is exact (1); invocation 2 "rome 24 c and
	// sunny" against "rome is warmer 24 c and sunny": P = 5/5, R = 5/7,
	// F = 10/12; mean (1 + 10/12) / 2.
	want := map[string]float64{"tool_trajectory_avg_score": 0.5, "response_match_score": (1 + 10.0/12) / 2}
	for m, w := range want {
		if g, ok := got[m]; !ok || math.Abs(g-w) > 1e-9 {
			t.Errorf("session %s = %v (present %v), want %v", m, g, ok, w)
		}
	}

	// the offline path: the same runs joined to the eval set
	set, err := dataset.LoadEvalSet(evalset)
	if err != nil {
		t.Fatal(err)
	}
	rows, unmatched, stray := dataset.Join(set, runs, "eval.case_id")
	if len(rows) != 1 || len(unmatched) != 0 || len(stray) != 0 {
		t.Fatalf("join: %d rows, unmatched %v, runs matching no case %v", len(rows), unmatched, stray)
	}
	ms, err := catalog.NewRegistry().Build(session.CaseMetrics())
	if err != nil {
		t.Fatal(err)
	}
	eng, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, nil, scorer.EngineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range eng.Evaluate(ctx, rows[0].Instance).Results {
		if got[r.Metric] != r.Score {
			t.Errorf("%s: online session %v, offline eval %v", r.Metric, got[r.Metric], r.Score)
		}
	}
}

// sendTripTurn sends one turn of the canary conversation conv-trip, which
// names the eval case trip-1 of testdata/trip.evalset.json: the weather
// agent answers input with output after one get_weather call for city.
func sendTripTurn(ctx context.Context, tracer trace.Tracer, at time.Time, input, city, output string) {
	ctx, root := tracer.Start(ctx, "invoke_agent weather", trace.WithTimestamp(at))
	root.SetAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "weather"),
		attribute.String("gen_ai.conversation.id", "conv-trip"),
		attribute.String("eval.case_id", "trip-1"),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+input+`"}]}]`),
		attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"`+output+`"}]}]`),
	)
	_, tool := tracer.Start(ctx, "execute_tool get_weather", trace.WithTimestamp(at.Add(100*time.Millisecond)))
	tool.SetAttributes(
		attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", "get_weather"),
		attribute.String("gen_ai.tool.call.arguments", `{"city": "`+city+`"}`),
	)
	tool.End(trace.WithTimestamp(at.Add(200 * time.Millisecond)))
	root.End(trace.WithTimestamp(at.Add(time.Second)))
}
