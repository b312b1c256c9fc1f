// Package testpayload builds synthetic OTLP payloads shaped like real agent
// traces, for benchmarks and load tests.
package testpayload

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Base is the start time of the first trace of a payload.
var Base = time.Unix(1_800_000_000, 0)

// Medium returns one request with the given number of traces, each shaped
// as the medium profile: one invoke_agent root span (8 attributes), three
// chat spans (14 attributes, ~2 KB input and ~2 KB output messages JSON
// each) and four execute_tool spans (7 attributes, ~200 B arguments, ~1 KB
// result). The request has one resource with 7 attributes and two scopes
// (agent framework, model client). Ids are derived from the trace index, so
// the same call returns the same payload.
func Medium(traces int) ptrace.Traces {
	return MediumRange(0, traces)
}

// MediumRange is Medium for the traces numbered first to first+traces-1, so
// that successive requests carry distinct trace ids.
func MediumRange(first, traces int) ptrace.Traces {
	td, agentSpans, llmSpans := newRequest()
	for i := range traces {
		addTrace(agentSpans, llmSpans, first+i)
	}
	return td
}

// newRequest returns a request with one resource (7 attributes) and its
// two scopes' span lists: the agent framework's and the model client's.
func newRequest() (td ptrace.Traces, agentSpans, llmSpans ptrace.SpanSlice) {
	td = ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	ra := rs.Resource().Attributes()
	ra.PutStr("service.name", "support-bot")
	ra.PutStr("service.version", "2.3.1")
	ra.PutStr("service.namespace", "agents")
	ra.PutStr("deployment.environment.name", "prod")
	ra.PutStr("telemetry.sdk.name", "opentelemetry")
	ra.PutStr("telemetry.sdk.language", "python")
	ra.PutStr("host.name", "agent-7f9c")
	agentScope := rs.ScopeSpans().AppendEmpty()
	agentScope.Scope().SetName("agent.framework")
	llmScope := rs.ScopeSpans().AppendEmpty()
	llmScope.Scope().SetName("llm.client")
	return td, agentScope.Spans(), llmScope.Spans()
}

var tools = [4]string{"search_orders", "get_order", "refund_order", "send_email"}

func addTrace(agentSpans, llmSpans ptrace.SpanSlice, n int) {
	var tid pcommon.TraceID
	binary.BigEndian.PutUint64(tid[:8], 0x5eed000000000000|uint64(n))
	binary.BigEndian.PutUint64(tid[8:], uint64(n)*0x9e3779b97f4a7c15+1)
	sid := func(k int) pcommon.SpanID {
		var s pcommon.SpanID
		binary.BigEndian.PutUint64(s[:], uint64(n)<<8|uint64(k+1))
		return s
	}
	t0 := Base.Add(time.Duration(n) * time.Second)
	ts := func(ms int) pcommon.Timestamp {
		return pcommon.NewTimestampFromTime(t0.Add(time.Duration(ms) * time.Millisecond))
	}
	question := fmt.Sprintf("Order %d arrived damaged; please refund it and email me a confirmation.", 1000+n)
	answer := fmt.Sprintf("I refunded order %d and emailed you a confirmation. %s", 1000+n, filler(1700))

	root := agentSpans.AppendEmpty()
	root.SetTraceID(tid)
	root.SetSpanID(sid(0))
	root.SetName("invoke_agent support-bot")
	root.SetKind(ptrace.SpanKindInternal)
	root.SetStartTimestamp(ts(0))
	root.SetEndTimestamp(ts(4000))
	a := root.Attributes()
	a.PutStr("gen_ai.operation.name", "invoke_agent")
	a.PutStr("gen_ai.agent.name", "support-bot")
	a.PutStr("gen_ai.agent.id", "agent-support-1")
	a.PutStr("gen_ai.provider.name", "openai")
	a.PutStr("gen_ai.conversation.id", fmt.Sprintf("conv-%d", n))
	a.PutStr("gen_ai.request.model", "gpt-4o")
	a.PutInt("gen_ai.usage.input_tokens", 3000)
	a.PutInt("gen_ai.usage.output_tokens", 600)

	calls := 0
	for c := range 3 {
		start := c * 1300
		ca := addChat(llmSpans, tid, sid(1+c), sid(0), ts(start+1), ts(start+900))
		ca.PutStr("gen_ai.response.id", fmt.Sprintf("chatcmpl-%d-%d", n, c))
		ca.PutStr("server.address", "api.openai.com")
		ca.PutInt("server.port", 443)
		ca.PutDouble("gen_ai.request.temperature", 0.2)
		ca.PutInt("gen_ai.usage.input_tokens", int64(900+100*c))
		ca.PutInt("gen_ai.usage.output_tokens", int64(150+10*c))
		fr := ca.PutEmptySlice("gen_ai.response.finish_reasons")
		ca.PutStr("gen_ai.input.messages", inputMessages(question, c))
		if c < 2 {
			fr.AppendEmpty().SetStr("tool_calls")
			ca.PutStr("gen_ai.output.messages", toolCallOutput(n, calls, calls+1))
		} else {
			fr.AppendEmpty().SetStr("stop")
			ca.PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"`+answer+`"}],"finish_reason":"stop"}]`)
		}
		ca.PutStr("gen_ai.system_instructions", `[{"type":"text","content":"You are a support agent. Be precise."}]`)
		if c < 2 {
			for k := range 2 {
				addTool(agentSpans, tid, sid(4+calls), sid(0), ts(start+900+k*200), ts(start+1100+k*200), n, calls)
				calls++
			}
		}
	}
	root.Attributes().PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"`+question+`"}]}]`)
	root.Attributes().PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"text","content":"`+answer+`"}],"finish_reason":"stop"}]`)
}

// addChat appends a chat span with the attributes every chat span of the
// payloads has, and returns its attributes.
func addChat(spans ptrace.SpanSlice, tid pcommon.TraceID, id, parent pcommon.SpanID, start, end pcommon.Timestamp) pcommon.Map {
	ch := spans.AppendEmpty()
	ch.SetTraceID(tid)
	ch.SetSpanID(id)
	ch.SetParentSpanID(parent)
	ch.SetName("chat gpt-4o")
	ch.SetKind(ptrace.SpanKindClient)
	ch.SetStartTimestamp(start)
	ch.SetEndTimestamp(end)
	ca := ch.Attributes()
	ca.PutStr("gen_ai.operation.name", "chat")
	ca.PutStr("gen_ai.provider.name", "openai")
	ca.PutStr("gen_ai.request.model", "gpt-4o")
	ca.PutStr("gen_ai.response.model", "gpt-4o-2024-08-06")
	return ca
}

func addTool(spans ptrace.SpanSlice, tid pcommon.TraceID, id, parent pcommon.SpanID, start, end pcommon.Timestamp, n, k int) {
	addToolCall(spans, tid, id, parent, start, end, tools[k], callID(n, k), toolArgs(n, k),
		`{"ok":true,"order_id":"`+fmt.Sprint(1000+n)+`","detail":"`+filler(960)+`"}`)
}

// addToolCall appends an execute_tool span.
func addToolCall(spans ptrace.SpanSlice, tid pcommon.TraceID, id, parent pcommon.SpanID, start, end pcommon.Timestamp, name, callID, args, result string) {
	s := spans.AppendEmpty()
	s.SetTraceID(tid)
	s.SetSpanID(id)
	s.SetParentSpanID(parent)
	s.SetName("execute_tool " + name)
	s.SetKind(ptrace.SpanKindInternal)
	s.SetStartTimestamp(start)
	s.SetEndTimestamp(end)
	a := s.Attributes()
	a.PutStr("gen_ai.operation.name", "execute_tool")
	a.PutStr("gen_ai.tool.name", name)
	a.PutStr("gen_ai.tool.call.id", callID)
	a.PutStr("gen_ai.tool.type", "function")
	a.PutStr("gen_ai.tool.description", "Support back-office operation "+name+".")
	a.PutStr("gen_ai.tool.call.arguments", args)
	a.PutStr("gen_ai.tool.call.result", result)
}

func callID(n, k int) string { return fmt.Sprintf("call_%d_%d", n, k) }

func toolArgs(n, k int) string {
	return fmt.Sprintf(`{"order_id":"%d","reason":"damaged in transit","notify":true,"channel":"email","note":"%s"}`, 1000+n, filler(100+k))
}

func toolCallOutput(n, k1, k2 int) string {
	var b strings.Builder
	b.WriteString(`[{"role":"assistant","parts":[{"type":"text","content":"`)
	b.WriteString(filler(1500))
	b.WriteString(`"}`)
	for _, k := range []int{k1, k2} {
		fmt.Fprintf(&b, `,{"type":"tool_call","id":"%s","name":"%s","arguments":%s}`, callID(n, k), tools[k], toolArgs(n, k))
	}
	b.WriteString(`],"finish_reason":"tool_call"}]`)
	return b.String()
}

func inputMessages(question string, c int) string {
	var b strings.Builder
	b.WriteString(`[{"role":"user","parts":[{"type":"text","content":"`)
	b.WriteString(question)
	b.WriteString(`"}]},{"role":"assistant","parts":[{"type":"text","content":"`)
	b.WriteString(filler(1800 - 20*c))
	b.WriteString(`"}]}]`)
	return b.String()
}

// filler returns n bytes of plain prose.
func filler(n int) string {
	const words = "the customer reports that the parcel was crushed and the item inside is broken so a refund is due "
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words)
	}
	return b.String()[:n]
}
