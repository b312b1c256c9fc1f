package extractor

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Hostile traces: whatever arrives, the assembler and the decoders never
// crash or hang; sizes are capped, the cut is flagged on the trajectory
// and counted as a drop.

// hostileSpan is a span of a hostile test trace; ids are 32-bit so that
// traces can be large.
type hostileSpan struct {
	id, parent uint32 // parent 0: none
	name       string
	start, end time.Duration
	scope      string
	attrs      [][2]string
	status     ptrace.StatusCode
}

func hostileSpanID(n uint32) pcommon.SpanID {
	var id pcommon.SpanID
	id[0] = 0xee
	binary.BigEndian.PutUint32(id[4:], n)
	return id
}

// hostileTraces makes one request of trace 0xee..01 holding spans.
func hostileTraces(spans []hostileSpan) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "hostile")
	byScope := map[string]ptrace.SpanSlice{}
	for _, sp := range spans {
		sl, ok := byScope[sp.scope]
		if !ok {
			ss := rs.ScopeSpans().AppendEmpty()
			ss.Scope().SetName(sp.scope)
			sl = ss.Spans()
			byScope[sp.scope] = sl
		}
		s := sl.AppendEmpty()
		s.SetTraceID(pcommon.TraceID{0xee, 15: 1})
		s.SetSpanID(hostileSpanID(sp.id))
		if sp.parent != 0 {
			s.SetParentSpanID(hostileSpanID(sp.parent))
		}
		s.SetName(sp.name)
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(testEpoch.Add(sp.start)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(testEpoch.Add(sp.end)))
		s.Status().SetCode(sp.status)
		for _, kv := range sp.attrs {
			s.Attributes().PutStr(kv[0], kv[1])
		}
	}
	return td
}

// extractDirect converts spans the way the assembler does and extracts
// them, without the assembler's caps.
func extractDirect(t *testing.T, spans []hostileSpan) []*agentrun.Trajectory {
	t.Helper()
	bt := converter{maxValue: DefaultConfig().MaxAttributeValueBytes}.traces(hostileTraces(spans))
	if len(bt.groups) != 1 {
		t.Fatalf("%d traces", len(bt.groups))
	}
	g := bt.groups[0]
	trs := extractTrace(&Trace{id: g.id, spans: g.spans, truncated: g.truncated})
	for _, tr := range trs {
		if _, err := json.Marshal(tr); err != nil {
			t.Fatalf("trajectory does not marshal: %v", err)
		}
	}
	return trs
}

// consumeHostile feeds spans to an assembler with default limits and
// flushes it.
func consumeHostile(t *testing.T, spans []hostileSpan) (*testAssembler, []*agentrun.Trajectory) {
	t.Helper()
	ta := newTestAssembler(t, DefaultConfig())
	if err := ta.ConsumeTraces(context.Background(), hostileTraces(spans)); err != nil {
		t.Fatal(err)
	}
	if err := ta.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return ta, ta.sink.all()
}

func agentAttrs(name string) [][2]string {
	return [][2]string{{keyOperation, opInvokeAgent}, {keyAgentName, name}}
}

func toolAttrs(name, args string) [][2]string {
	return [][2]string{{keyOperation, opExecuteTool}, {keyToolName, name}, {keyToolArguments, args}}
}

// TestHostileParentCycles: agent spans whose parents form a cycle, tools
// under them, a tool that is its own parent and one whose parent never
// arrived. The cycle is cut, and every tool span is recorded once, in the
// trace's one run.
func TestHostileParentCycles(t *testing.T) {
	ms := time.Millisecond
	spans := []hostileSpan{
		{id: 1, parent: 3, name: "invoke_agent a", end: 50 * ms, attrs: agentAttrs("a")},
		{id: 2, parent: 1, name: "invoke_agent b", start: ms, end: 40 * ms, attrs: agentAttrs("b")},
		{id: 3, parent: 2, name: "invoke_agent c", start: 2 * ms, end: 30 * ms, attrs: agentAttrs("c")},
		{id: 5, parent: 3, name: "execute_tool t1", start: 4 * ms, end: 5 * ms, attrs: toolAttrs("t1", `{"a":1}`)},
		{id: 6, parent: 2, name: "execute_tool t2", start: 6 * ms, end: 7 * ms, attrs: toolAttrs("t2", `{"b":2}`)},
		{id: 7, parent: 7, name: "execute_tool t3", start: 8 * ms, end: 9 * ms, attrs: toolAttrs("t3", `{"c":3}`)},
		{id: 8, parent: 999, name: "execute_tool t4", start: 10 * ms, end: 11 * ms, attrs: toolAttrs("t4", `{"d":4}`)},
	}
	trs := extractDirect(t, spans)
	seen := map[string]int{}
	for _, tr := range trs {
		for _, c := range tr.ToolCalls {
			seen[c.Name]++
		}
	}
	if len(trs) != 1 {
		t.Errorf("%d trajectories, want 1", len(trs))
	}
	for _, name := range []string{"t1", "t2", "t3", "t4"} {
		if seen[name] != 1 {
			t.Errorf("tool %s recorded %d times over %d trajectories", name, seen[name], len(trs))
		}
	}
	// through the assembler too: no root ever arrives, the trace is
	// released at flush
	_, out := consumeHostile(t, spans)
	if len(out) == 0 {
		t.Fatal("no trajectory from a cyclic trace")
	}
}

// TestHostileOrphansNoRoot: every span's parent is missing. The spans still
// make a trajectory; its tool calls keep their order.
func TestHostileOrphansNoRoot(t *testing.T) {
	ms := time.Millisecond
	spans := []hostileSpan{
		{id: 10, parent: 900, name: "chat m", start: 1 * ms, end: 2 * ms, attrs: [][2]string{{keyOperation, opChat}, {keyRequestModel, "m"},
			{keyInputMessages, `[{"role":"user","parts":[{"type":"text","content":"q"}]}]`}}},
		{id: 11, parent: 901, name: "execute_tool b", start: 4 * ms, end: 5 * ms, attrs: toolAttrs("b", `{}`)},
		{id: 12, parent: 902, name: "execute_tool a", start: 3 * ms, end: 4 * ms, attrs: toolAttrs("a", `{}`)},
	}
	ta, out := consumeHostile(t, spans)
	if len(out) != 1 {
		t.Fatalf("%d trajectories, want 1", len(out))
	}
	tr := out[0]
	if len(tr.ToolCalls) != 2 || tr.ToolCalls[0].Name != "a" || tr.ToolCalls[1].Name != "b" || tr.Input != "q" {
		t.Errorf("orphans rebuilt as %+v", tr)
	}
	if n := ta.outcome(OutcomeEvicted); n != 1 {
		t.Errorf("release not counted: %v", n)
	}
}

// TestHostileHundredThousandSpans: one request of 100k spans of one trace.
// The trace keeps max_spans_per_trace spans, the rest are counted as
// dropped, and the trajectory is flagged truncated.
func TestHostileHundredThousandSpans(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100k spans")
	}
	const n = 100_000
	spans := make([]hostileSpan, 0, n)
	spans = append(spans, hostileSpan{id: 1, name: "invoke_agent big", end: time.Hour, attrs: agentAttrs("big")})
	for i := uint32(2); i <= n; i++ {
		spans = append(spans, hostileSpan{id: i, parent: 1, name: "execute_tool t", start: time.Duration(i) * time.Microsecond,
			end: time.Duration(i+1) * time.Microsecond, attrs: [][2]string{{keyOperation, opExecuteTool}, {keyToolName, "t"}}})
	}
	ta, out := consumeHostile(t, spans)
	max := DefaultConfig().MaxSpansPerTrace
	if got := ta.dropped(reasonSpansPer); got != float64(n-max) {
		t.Errorf("dropped %v spans, want %d", got, n-max)
	}
	if ta.outcome(OutcomeTooLarge) != 1 {
		t.Errorf("too-large release not counted")
	}
	if len(out) != 1 {
		t.Fatalf("%d trajectories", len(out))
	}
	if !out[0].Truncated || len(out[0].ToolCalls) != max-1 {
		t.Errorf("truncated %v with %d tool calls, want flagged with %d", out[0].Truncated, len(out[0].ToolCalls), max-1)
	}
}

// TestHostileDeepChain: a chain of nested spans as deep as the span cap
// allows, with every tool starting in the same millisecond (the order then
// rests on ancestry and request order). Extraction finishes and keeps every
// tool once.
func TestHostileDeepChain(t *testing.T) {
	depth := uint32(DefaultConfig().MaxSpansPerTrace)
	if testing.Short() {
		depth = 500
	}
	spans := []hostileSpan{{id: 1, name: "invoke_agent deep", end: time.Second, attrs: agentAttrs("deep")}}
	for i := uint32(2); i <= depth; i++ {
		name := "wrapper"
		var as [][2]string
		if i%2 == 0 {
			name, as = "execute_tool t", toolAttrs("t", `{}`)
		}
		spans = append(spans, hostileSpan{id: i, parent: i - 1, name: name, start: time.Millisecond, end: 2 * time.Millisecond, attrs: as})
	}
	trs := extractDirect(t, spans)
	if len(trs) != 1 || len(trs[0].ToolCalls) != int(depth)/2 {
		t.Fatalf("got %d trajectories", len(trs))
	}
}

// TestHostileMegabyteValues: megabyte content in every convention's
// content keys is cut to max_attribute_value_bytes, flagged and counted.
func TestHostileMegabyteValues(t *testing.T) {
	big := `{"q":"` + strings.Repeat("x", 1<<20) + `"}`
	bigMsgs := `[{"role":"user","parts":[{"type":"text","content":"` + strings.Repeat("y", 1<<20) + `"}]}]`
	ms := time.Millisecond
	cases := map[string][]hostileSpan{
		"genai": {
			{id: 1, name: "invoke_agent a", end: 10 * ms, attrs: append(agentAttrs("a"), [2]string{keyInputMessages, bigMsgs})},
			{id: 2, parent: 1, name: "execute_tool t", start: ms, end: 2 * ms, attrs: toolAttrs("t", big)},
		},
		"vercel-ai": {
			{id: 1, name: "ai.generateText", end: 10 * ms, scope: "ai", attrs: [][2]string{{keyAIOperationID, "ai.generateText"}, {keyAIPrompt, big}, {keyAIResponseText, big}}},
			{id: 2, parent: 1, name: "ai.toolCall", start: ms, end: 2 * ms, scope: "ai", attrs: [][2]string{{keyAIOperationID, "ai.toolCall"}, {keyAIToolCallName, "t"}, {keyAIToolCallArgs, big}}},
		},
		"adk": {
			{id: 1, name: "invoke_agent a", end: 10 * ms, scope: adkScope, attrs: agentAttrs("a")},
			{id: 2, parent: 1, name: "call_llm", start: ms, end: 2 * ms, scope: adkScope, attrs: [][2]string{{keyADKLLMRequest, big}, {keyADKLLMResponse, big}}},
			{id: 3, parent: 1, name: "execute_tool t", start: 3 * ms, end: 4 * ms, scope: adkScope, attrs: append(toolAttrs("t", ""), [2]string{keyADKToolArgs, big})},
		},
	}
	for name, spans := range cases {
		t.Run(name, func(t *testing.T) {
			ta, out := consumeHostile(t, spans)
			if len(out) != 1 {
				t.Fatalf("%d trajectories", len(out))
			}
			tr := out[0]
			if !tr.Truncated {
				t.Error("trajectory not flagged truncated")
			}
			if ta.dropped(reasonTruncated) == 0 {
				t.Error("truncation not counted")
			}
			if len(tr.ToolCalls) != 1 {
				t.Fatalf("%d tool calls", len(tr.ToolCalls))
			}
			c := tr.ToolCalls[0]
			if len(c.Arguments) > DefaultConfig().MaxAttributeValueBytes || c.ArgumentsValid {
				t.Errorf("arguments of %d bytes, valid %v: want cut and flagged invalid", len(c.Arguments), c.ArgumentsValid)
			}
		})
	}
}

// TestHostileInvalidUTF8: invalid UTF-8 in span names, attribute values
// and message content of every convention.
func TestHostileInvalidUTF8(t *testing.T) {
	bad := "caf\xe9 \xff\xfe \xc3"
	ms := time.Millisecond
	spans := []hostileSpan{
		{id: 1, name: "invoke_agent " + bad, end: 10 * ms, attrs: append(agentAttrs(bad),
			[2]string{keyInputMessages, `[{"role":"user","parts":[{"type":"text","content":"` + bad + `"}]}]`})},
		{id: 2, parent: 1, name: "execute_tool " + bad, start: ms, end: 2 * ms, attrs: toolAttrs(bad, `{"a":"`+bad+`"}`)},
		{id: 3, parent: 1, name: "ai.toolCall", start: 3 * ms, end: 4 * ms, scope: "ai", attrs: [][2]string{
			{keyAIOperationID, "ai.toolCall"}, {keyAIToolCallName, bad}, {keyAIToolCallArgs, bad}, {keyAIToolCallResult, `"` + bad + `"`}}},
		{id: 4, parent: 1, name: "call_llm", start: 5 * ms, end: 6 * ms, scope: adkScope, attrs: [][2]string{
			{keyADKLLMRequest, `{"contents":[{"role":"user","parts":[{"text":"` + bad + `"}]}]}`}, {keyADKLLMResponse, bad}}},
		{id: 5, parent: 1, name: "chat", start: 7 * ms, end: 8 * ms, attrs: [][2]string{{keyOperation, opChat}, {keySystem, strandsProvider}}},
		{id: 6, parent: 1, name: "tool", start: 8 * ms, end: 9 * ms, attrs: [][2]string{{keyLangSmithKind, "tool"}, {keyWholePrompt, bad}, {keyWholeCompletion, bad}}},
	}
	trs := extractDirect(t, spans)
	if len(trs) != 1 || len(trs[0].ToolCalls) != 3 {
		t.Fatalf("got %d trajectories", len(trs))
	}
	out, err := json.Marshal(trs[0])
	if err != nil || !utf8.Valid(out) {
		t.Errorf("trajectory JSON is not valid UTF-8 (%v)", err)
	}
}

// TestHostileDeepNesting: arguments and message content nested 10,000
// levels deep in every convention's keys.
func TestHostileDeepNesting(t *testing.T) {
	const depth = 10_000
	obj := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
	arr := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	msgs := `[{"role":"user","parts":[{"type":"text","content":` + obj + `}]}]`
	ms := time.Millisecond
	spans := []hostileSpan{
		{id: 1, name: "invoke_agent a", end: 20 * ms, attrs: append(agentAttrs("a"), [2]string{keyInputMessages, msgs}, [2]string{keyOutputMessages, arr})},
		{id: 2, parent: 1, name: "chat m", start: ms, end: 2 * ms, attrs: [][2]string{{keyOperation, opChat}, {keyRequestModel, "m"},
			{keyInputMessages, arr}, {keyOutputMessages, msgs}, {keySystemInstructions, arr}, {keyToolDefinitions, arr}}},
		{id: 3, parent: 1, name: "execute_tool t", start: 3 * ms, end: 4 * ms, attrs: toolAttrs("t", obj)},
		{id: 4, parent: 1, name: "ai.generateText.doGenerate", start: 5 * ms, end: 6 * ms, scope: "ai", attrs: [][2]string{
			{keyAIPromptMessages, arr}, {keyAIResponseCalls, `[{"toolCallId":"x","toolName":"v","input":` + obj + `}]`}}},
		{id: 5, parent: 1, name: "ai.toolCall", start: 7 * ms, end: 8 * ms, scope: "ai", attrs: [][2]string{{keyAIToolCallName, "v"}, {keyAIToolCallArgs, obj}}},
		{id: 6, parent: 1, name: "call_llm", start: 9 * ms, end: 10 * ms, scope: adkScope, attrs: [][2]string{
			{keyADKLLMRequest, `{"contents":` + arr + `}`}, {keyADKLLMResponse, `{"content":{"parts":[{"function_call":{"name":"g","args":` + obj + `}}]}}`}}},
		{id: 7, parent: 1, name: "execute_tool g", start: 11 * ms, end: 12 * ms, scope: adkScope, attrs: append(toolAttrs("g", ""), [2]string{keyADKToolArgs, obj})},
		{id: 8, parent: 1, name: "ChatOpenAI", start: 13 * ms, end: 14 * ms, attrs: [][2]string{{keyLangSmithKind, "llm"}, {keyWholePrompt, `{"messages":` + arr + `}`}, {keyWholeCompletion, arr}}},
	}
	trs := extractDirect(t, spans)
	if len(trs) != 1 {
		t.Fatalf("got %d trajectories", len(trs))
	}
	if n := len(trs[0].ToolCalls); n != 3 {
		t.Errorf("%d tool calls, want 3", n)
	}
}
