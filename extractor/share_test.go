package extractor

import (
	"context"
	"strings"
	"testing"
	"unsafe"
)

// A long value repeated across a trace's spans, and across requests, is
// buffered once: the later copies point at the first, the buffered size
// counts it once, and the run extracted is the same.
func TestRepeatedValuesKeptOnce(t *testing.T) {
	defs := `[{"type":"function","name":"lookup","description":"` + strings.Repeat("Finds an order. ", 40) + `"}]`
	run := func(tr byte) []spanSpec {
		r := agentRun(tr)
		for i := range r {
			if r[i].attrs[keyOperation] == opChat {
				r[i].attrs[keyToolDefinitions] = defs
			}
		}
		return r
	}
	plain := newTestAssembler(t, DefaultConfig())
	if err := plain.ConsumeTraces(context.Background(), buildTraces(agentRun(1)...)); err != nil {
		t.Fatal(err)
	}
	ta := newTestAssembler(t, DefaultConfig())
	r := run(1)
	// the chat spans in two requests
	if err := ta.ConsumeTraces(context.Background(), buildTraces(r[:2]...)); err != nil {
		t.Fatal(err)
	}
	if err := ta.ConsumeTraces(context.Background(), buildTraces(r[2:]...)); err != nil {
		t.Fatal(err)
	}
	tr := ta.traces[traceID(1)]
	var copies []*byte
	for _, s := range tr.spans {
		if v, ok := s.attrs.get(keyToolDefinitions); ok {
			copies = append(copies, unsafe.StringData(v))
		}
	}
	if len(copies) != 2 || copies[0] != copies[1] {
		t.Fatalf("tool definitions of the two model calls: %d values, shared %v", len(copies), len(copies) == 2 && copies[0] == copies[1])
	}
	// one copy of the definitions (and their key twice) more than the run
	// without them, plus the index entry
	extra := ta.BufferedBytes() - plain.BufferedBytes()
	if want := int64(len(defs) + 2*(attrOverhead+len(keyToolDefinitions)) + shareEntryBytes); extra != want {
		t.Errorf("buffered %d bytes more than without the definitions, want %d", extra, want)
	}
	if err := ta.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := ta.sink.all()
	if len(got) != 1 || len(got[0].ToolDefs) != 1 || got[0].ToolDefs[0].Name != "lookup" || !strings.HasPrefix(got[0].ToolDefs[0].Description, "Finds an order.") {
		t.Fatalf("extracted run: %+v", got)
	}
}
