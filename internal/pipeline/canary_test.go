package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/text"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// TestCanaryReferenceEndToEnd sends a canary run tagged with an eval case
// id through the real OTel SDK: the run finds its reference in a reference
// file and the reference-based metrics score it; an untagged run gets them
// as not applicable.
func TestCanaryReferenceEndToEnd(t *testing.T) {
	dir := t.TempDir()
	refs := filepath.Join(dir, "canary.jsonl")
	row := `{"case_id": "weather-1", "reference": "It is sunny in Paris.", "reference_trajectory": [{"tool_name": "get_weather", "tool_input": {"city": "Paris"}}]}`
	if err := os.WriteFile(refs, []byte(row+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(dir)
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false
	cfg.Scorer.Metrics = []scorer.MetricConfig{{Name: text.MetricExactMatch}, {Name: toolmatch.MetricTrajectoryExactMatch}}
	cfg.Scorer.References.Files = []string{refs}
	c := &capture{}
	p, ctx := startOnline(t, cfg, Options{Extra: []exporter.Exporter{c}})
	tp := sdkTracerProvider(t, ctx, p, "weather-agent")
	tracer := tp.Tracer("canary-test")
	run := func(caseID string) string {
		attrs := []attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "invoke_agent"),
			attribute.String("gen_ai.agent.name", "weather"),
			attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"Weather in Paris?"}]}]`),
			attribute.String("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"It is sunny in Paris."}]}]`),
		}
		if caseID != "" {
			attrs = append(attrs, attribute.String("eval.case_id", caseID))
		}
		ctx, root := tracer.Start(ctx, "invoke_agent weather")
		root.SetAttributes(attrs...)
		_, tool := tracer.Start(ctx, "execute_tool get_weather")
		tool.SetAttributes(
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "get_weather"),
			attribute.String("gen_ai.tool.call.arguments", `{"city": "Paris"}`),
			attribute.String("gen_ai.tool.call.result", `{"sky": "sunny"}`),
		)
		tool.End()
		root.End()
		return root.SpanContext().TraceID().String()
	}
	canary, plain := run("weather-1"), run("")
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	byID := map[string]*scorer.Evaluation{}
	for _, ev := range c.evs {
		byID[ev.Trajectory.TraceID] = ev
	}
	ev := byID[canary]
	if ev == nil {
		t.Fatalf("no evaluation of the canary run; got %d evaluations", len(c.evs))
	}
	scores := map[string]float64{}
	for _, r := range ev.Results {
		scores[r.Metric] = r.Score
	}
	if scores[text.MetricExactMatch] != 1 || scores[toolmatch.MetricTrajectoryExactMatch] != 1 || len(ev.Results) != 2 {
		t.Errorf("canary run results = %+v, not applicable %v; want exact_match and trajectory_exact_match = 1", ev.Results, ev.NotApplicable)
	}
	if pl := byID[plain]; pl == nil || len(pl.Results) != 0 || len(pl.NotApplicable) != 2 {
		t.Errorf("untagged run: %+v", pl)
	}
}
