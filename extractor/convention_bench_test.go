package extractor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// loadTrace builds the buffered record of the single trace in an OTLP
// JSON file, or in a capture directory's payloads.
func loadTrace(tb testing.TB, path string) *Trace {
	tb.Helper()
	files := []string{path}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(path, "payload-*.json"))
	}
	tr := &Trace{}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		// golden-test inputs wrap the requests: {"requests":[{"traces":…}]}
		var wrapped struct {
			Requests []struct {
				Traces json.RawMessage `json:"traces"`
			} `json:"requests"`
		}
		bodies := [][]byte{body}
		if json.Unmarshal(body, &wrapped) == nil && len(wrapped.Requests) > 0 {
			bodies = bodies[:0]
			for _, r := range wrapped.Requests {
				bodies = append(bodies, r.Traces)
			}
		}
		for _, body := range bodies {
			td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(body)
			if err != nil {
				tb.Fatal(err)
			}
			bt := converter{maxValue: DefaultConfig().MaxAttributeValueBytes}.traces(td)
			for _, g := range bt.groups {
				if tr.id != ([16]byte{}) && g.id != tr.id {
					tb.Fatalf("%s holds several traces", path)
				}
				tr.id = g.id
				tr.spans = append(tr.spans, g.spans...)
			}
		}
	}
	if len(tr.spans) == 0 {
		tb.Fatalf("%s: no spans", path)
	}
	return tr
}

// conventionBenchTraces are one representative trace per convention: a
// three-tool run of each (the GenAI one has five tool calls).
var conventionBenchTraces = []struct{ name, path string }{
	{"genai", "testdata/realclients/otel-genai-manual/json/customer-support"},
	{"openinference", "testdata/captures/openai-agents/json/multi-tool"},
	{"openinference-langgraph", "testdata/captures/langgraph/json/multi-tool"},
	{"openllmetry", "testdata/captures/traceloop/json/multi-tool"},
	{"openllmetry-legacy", "testdata/openllmetry_legacy.otlp.json"},
	{"vercel-ai", "testdata/captures/vercel-ai/json/multi-tool"},
	{"vercel-ai-legacy", "testdata/captures/vercel-ai-legacy/json/multi-tool"},
	{"adk", "testdata/adk_g2_invoke_agent.otlp.json"},
	{"strands", "testdata/strands_span_events.otlp.json"},
	{"pydantic-ai", "testdata/pydantic_ai_v5.otlp.json"},
	{"langsmith", "testdata/langsmith_chain.otlp.json"},
}

// BenchmarkExtract measures extraction per convention, reported per
// span (ns/span, allocs/span) so that traces of different sizes compare.
func BenchmarkExtract(b *testing.B) {
	for _, c := range conventionBenchTraces {
		b.Run(c.name, func(b *testing.B) {
			tr := loadTrace(b, c.path)
			if len(extractTrace(tr)) == 0 {
				b.Fatal("no trajectory")
			}
			spans := float64(len(tr.spans))
			var before, after runtime.MemStats
			b.ReportAllocs()
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				extractTrace(tr)
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			n := float64(b.N) * spans
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/span")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/span")
		})
	}
}

func TestConventionBenchTraces(t *testing.T) {
	for _, c := range conventionBenchTraces {
		trs := extractTrace(loadTrace(t, c.path))
		if len(trs) != 1 {
			t.Fatalf("%s: %d trajectories", c.name, len(trs))
		}
		if conv := trs[0].Convention; !strings.HasPrefix(c.name, conv) {
			t.Errorf("%s: convention %q", c.name, conv)
		}
	}
}
