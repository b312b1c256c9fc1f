package extractor

import (
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// spanSpec describes a test span.
type spanSpec struct {
	trace  byte
	id     byte
	parent byte // 0: no parent
	name   string
	start  time.Duration
	end    time.Duration
	attrs  map[string]string
}

func traceID(b byte) pcommon.TraceID {
	return pcommon.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, b}
}
func spanID(b byte) pcommon.SpanID { return pcommon.SpanID{0xa, 0, 0, 0, 0, 0, 0, b} }

var testEpoch = time.Unix(1_800_000_000, 0)

// buildTraces makes one request holding the given spans.
func buildTraces(specs ...spanSpec) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "test-svc")
	ss := rs.ScopeSpans().AppendEmpty()
	for _, sp := range specs {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(traceID(sp.trace))
		s.SetSpanID(spanID(sp.id))
		if sp.parent != 0 {
			s.SetParentSpanID(spanID(sp.parent))
		}
		s.SetName(sp.name)
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(testEpoch.Add(sp.start)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(testEpoch.Add(sp.end)))
		for k, v := range sp.attrs {
			s.Attributes().PutStr(k, v)
		}
	}
	return td
}

// agentRun returns the spans of a small agent run in trace tr.
func agentRun(tr byte) []spanSpec {
	return []spanSpec{
		{trace: tr, id: 1, name: "invoke_agent bot", start: 0, end: 10 * time.Millisecond, attrs: map[string]string{
			keyOperation: opInvokeAgent, keyAgentName: "bot",
			keyInputMessages:  `[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`,
			keyOutputMessages: `[{"role":"assistant","parts":[{"type":"text","content":"hello"}],"finish_reason":"stop"}]`,
		}},
		{trace: tr, id: 2, parent: 1, name: "chat m", start: time.Millisecond, end: 4 * time.Millisecond, attrs: map[string]string{
			keyOperation: opChat, keyRequestModel: "m",
			keyOutputMessages: `[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"t","arguments":{"x":1}}],"finish_reason":"tool_call"}]`,
		}},
		{trace: tr, id: 3, parent: 1, name: "execute_tool t", start: 4 * time.Millisecond, end: 5 * time.Millisecond, attrs: map[string]string{
			keyOperation: opExecuteTool, keyToolName: "t", keyToolCallID: "c1", keyToolArguments: `{"x":1}`,
		}},
		{trace: tr, id: 4, parent: 1, name: "chat m", start: 5 * time.Millisecond, end: 9 * time.Millisecond, attrs: map[string]string{
			keyOperation: opChat, keyRequestModel: "m",
			keyOutputMessages: `[{"role":"assistant","parts":[{"type":"text","content":"hello"}],"finish_reason":"stop"}]`,
		}},
	}
}
