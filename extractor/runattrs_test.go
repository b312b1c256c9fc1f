package extractor

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// TestRunAttributes checks that configured span attributes reach the
// trajectory: from the agent span, else from another span of the run, and
// that unconfigured non-GenAI attributes do not.
func TestRunAttributes(t *testing.T) {
	build := func(rootCase, childCase string) ptrace.Traces {
		td := ptrace.NewTraces()
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", "svc")
		ss := rs.ScopeSpans().AppendEmpty()
		tid := pcommon.TraceID{1, 2, 3}
		root := ss.Spans().AppendEmpty()
		root.SetTraceID(tid)
		root.SetSpanID(pcommon.SpanID{1})
		root.SetName("invoke_agent a")
		root.SetStartTimestamp(1e9)
		root.SetEndTimestamp(3e9)
		root.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
		root.Attributes().PutStr("gen_ai.agent.name", "a")
		root.Attributes().PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"done"}]}]`)
		root.Attributes().PutStr("http.route", "/chat")
		if rootCase != "" {
			root.Attributes().PutStr("eval.case_id", rootCase)
		}
		tool := ss.Spans().AppendEmpty()
		tool.SetTraceID(tid)
		tool.SetSpanID(pcommon.SpanID{2})
		tool.SetParentSpanID(pcommon.SpanID{1})
		tool.SetName("execute_tool t")
		tool.SetStartTimestamp(1.5e9)
		tool.SetEndTimestamp(2e9)
		tool.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		tool.Attributes().PutStr("gen_ai.tool.name", "t")
		if childCase != "" {
			tool.Attributes().PutStr("eval.case_id", childCase)
		}
		return td
	}
	tests := []struct {
		name, root, child, want string
	}{
		{"on the agent span", "case-1", "", "case-1"},
		{"agent span wins", "case-1", "case-2", "case-1"},
		{"from a child span", "", "case-2", "case-2"},
		{"absent", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestAssembler(t, DefaultConfig())
			if err := a.ConsumeTraces(t.Context(), build(tt.root, tt.child)); err != nil {
				t.Fatal(err)
			}
			if err := a.Flush(t.Context()); err != nil {
				t.Fatal(err)
			}
			got := a.sink.all()
			if len(got) != 1 {
				t.Fatalf("%d trajectories, want 1", len(got))
			}
			if v := got[0].Attributes["eval.case_id"]; v != tt.want {
				t.Errorf("eval.case_id = %q, want %q", v, tt.want)
			}
			if _, ok := got[0].Attributes["http.route"]; ok {
				t.Error("an unconfigured span attribute reached the trajectory")
			}
		})
	}
}
