package prometheus

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// FuzzExportLabels feeds arbitrary span-derived label values, trace ids and
// scores through the exporter: it must never panic, every label value must
// be exposable, and the cap must hold.
func FuzzExportLabels(f *testing.F) {
	f.Add("svc", "agent", "tool", "model", "metric", "4bf92f3577b34da6a3ce929d0e0e4736", 0.5, int64(10))
	f.Add("", "", "", "", "", "", -1.0, int64(-1))
	f.Add("\xff\xfe", "a\x00b", "t\nool", "m\"", "other", "\xc3", 1e308, int64(1<<62))
	f.Fuzz(func(t *testing.T, service, agent, tool, model, metric, traceID string, score float64, tokens int64) {
		cfg := DefaultConfig()
		cfg.MaxLabelValues = 2
		x, reg := newTestExporter(t, cfg)
		for _, suffix := range []string{"", "1", "2"} {
			ev := &scorer.Evaluation{
				Trajectory: &agentrun.Trajectory{
					TraceID: traceID, Service: service + suffix, Agent: agent,
					ToolCalls: []agentrun.ToolCall{{Name: tool + suffix, Agent: agent + suffix, Error: traceID}},
					LLMCalls:  []agentrun.LLMCall{{Model: model, InputTokens: tokens, OutputTokens: -tokens}},
				},
				Results: []scorer.Result{{Metric: metric, Score: score}},
			}
			_ = x.Export(context.Background(), ev)
		}
		fams, err := reg.Gather()
		if err != nil {
			t.Fatalf("gather: %v", err)
		}
		if _, err := testutil.GatherAndLint(reg); err != nil {
			t.Fatalf("lint: %v", err)
		}
		capped := map[string]bool{labelService: true, labelAgent: true, labelTool: true, labelModel: true, labelMetric: true}
		for _, fam := range fams {
			values := map[string]map[string]bool{}
			for _, m := range fam.GetMetric() {
				for _, l := range m.GetLabel() {
					if values[l.GetName()] == nil {
						values[l.GetName()] = map[string]bool{}
					}
					values[l.GetName()][l.GetValue()] = true
				}
			}
			for name, vs := range values {
				delete(vs, ValueOther)
				delete(vs, ValueUnknown)
				if capped[name] && len(vs) > cfg.MaxLabelValues {
					t.Fatalf("%s: label %s has %d values over the cap", fam.GetName(), name, len(vs))
				}
			}
		}
	})
}
