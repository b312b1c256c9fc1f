package pipeline

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/exporter/record"
)

// TestLargeOutputIsOutput sends, with the real SDK, a run whose final
// answer is larger than max_attribute_value_bytes and checks what a user
// reads: the JSON lines trajectory holds the start of the answer, flagged
// truncated, and the run is neither failed nor scored as no_output.
func TestLargeOutputIsOutput(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir)
	p, ctx := startOnline(t, cfg, Options{})
	tp := sdkTracerProvider(t, ctx, p, "large-output")

	answer := strings.Repeat("The parcel left the depot on Monday. ", 3000) // 111 KB
	out, err := json.Marshal([]map[string]any{{"role": "assistant", "finish_reason": "stop",
		"parts": []map[string]string{{"type": "text", "content": answer}}}})
	if err != nil {
		t.Fatal(err)
	}
	_, root := tp.Tracer("test").Start(ctx, "invoke_agent support", trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"),
		attribute.String("gen_ai.agent.name", "support"),
		attribute.String("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"where is my parcel?"}]}]`),
		attribute.String("gen_ai.output.messages", string(out))))
	root.End()
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	trs := readLines[struct {
		record.TrajectoryRecord
		Truncated *bool `json:"truncated"`
	}](t, filepath.Join(dir, "trajectories.jsonl"))
	if len(trs) != 1 {
		t.Fatalf("%d trajectories, want 1", len(trs))
	}
	tr := trs[0]
	max := cfg.Extractor.MaxAttributeValueBytes
	if tr.Failed || tr.ErrorType != "" {
		t.Errorf("run failed (%q); a long answer is an answer", tr.ErrorType)
	}
	if len(tr.Output) < max*9/10 || len(tr.Output) > max || !strings.HasPrefix(answer, tr.Output) {
		t.Errorf("output is %d bytes, want the answer's first ~%d bytes", len(tr.Output), max)
	}
	if tr.Truncated == nil || !*tr.Truncated {
		t.Errorf("trajectory not flagged truncated")
	}
}
