package testpayload

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// CaseCall is one tool call of a Case trace.
type CaseCall struct {
	Name      string
	Arguments string // a JSON object
}

// Case returns one request with the trace of one agent run shaped as the
// medium profile's runs, but with the given final answer and tool calls:
// an invoke_agent root span, one chat span per two calls (with ~2 KB of
// input messages and ~1.5 KB of text besides the calls in its output, as
// in Medium), a last chat span with the answer, and one execute_tool span
// per call with a ~1 KB result. It is the trace a deterministic metric's
// inputs come from, so that scoring can be compared with decoding it.
func Case(answer string, calls []CaseCall) ptrace.Traces {
	td, agentSpans, llmSpans := newRequest()

	var tid pcommon.TraceID
	binary.BigEndian.PutUint64(tid[:8], 0xca5e000000000000)
	binary.BigEndian.PutUint64(tid[8:], 1)
	sid := func(k int) pcommon.SpanID {
		var s pcommon.SpanID
		binary.BigEndian.PutUint64(s[:], uint64(k+1))
		return s
	}
	ts := func(ms int) pcommon.Timestamp {
		return pcommon.NewTimestampFromTime(Base.Add(time.Duration(ms) * time.Millisecond))
	}
	question := "Order 1000 arrived damaged; please refund it and email me a confirmation."
	answerJSON, _ := json.Marshal(answer)
	final := `[{"role":"assistant","parts":[{"type":"text","content":` + string(answerJSON) + `}],"finish_reason":"stop"}]`

	turns := (len(calls) + 1) / 2
	end := 1300*(turns+1) + 100
	root := agentSpans.AppendEmpty()
	root.SetTraceID(tid)
	root.SetSpanID(sid(0))
	root.SetName("invoke_agent support-bot")
	root.SetStartTimestamp(ts(0))
	root.SetEndTimestamp(ts(end))
	a := root.Attributes()
	a.PutStr("gen_ai.operation.name", "invoke_agent")
	a.PutStr("gen_ai.agent.name", "support-bot")
	a.PutStr("gen_ai.provider.name", "openai")
	a.PutStr("gen_ai.conversation.id", "conv-case")
	a.PutStr("gen_ai.request.model", "gpt-4o")
	a.PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+question+`"}]}]`)
	a.PutStr("gen_ai.output.messages", final)

	next := 1 + turns + 1 // span numbers of the tool spans follow the chat spans
	for c := 0; c <= turns; c++ {
		start := c * 1300
		ca := addChat(llmSpans, tid, sid(1+c), sid(0), ts(start+1), ts(start+900))
		ca.PutInt("gen_ai.usage.input_tokens", int64(900+100*c))
		ca.PutInt("gen_ai.usage.output_tokens", int64(150+10*c))
		ca.PutStr("gen_ai.input.messages", inputMessages(question, c%3))
		fr := ca.PutEmptySlice("gen_ai.response.finish_reasons")
		if c == turns {
			fr.AppendEmpty().SetStr("stop")
			ca.PutStr("gen_ai.output.messages", final)
			continue
		}
		fr.AppendEmpty().SetStr("tool_calls")
		turn := calls[2*c : min(2*c+2, len(calls))]
		var b strings.Builder
		b.WriteString(`[{"role":"assistant","parts":[{"type":"text","content":"`)
		b.WriteString(filler(1500))
		b.WriteString(`"}`)
		for k, tc := range turn {
			fmt.Fprintf(&b, `,{"type":"tool_call","id":"call_case_%d","name":%q,"arguments":%s}`, 2*c+k, tc.Name, tc.Arguments)
		}
		b.WriteString(`],"finish_reason":"tool_call"}]`)
		ca.PutStr("gen_ai.output.messages", b.String())
		for k, tc := range turn {
			addToolCall(agentSpans, tid, sid(next), sid(0), ts(start+900+k*200), ts(start+1100+k*200),
				tc.Name, fmt.Sprintf("call_case_%d", 2*c+k), tc.Arguments, `{"ok":true,"detail":"`+filler(960)+`"}`)
			next++
		}
	}
	return td
}
