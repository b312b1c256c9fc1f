package simulator

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// newTestSim starts a simulator against a fresh in-process sink.
func newTestSim(t *testing.T, protocol string, mutate func(*Config)) (*Simulator, *otlpSink) {
	t.Helper()
	var sink *otlpSink
	var addr string
	if protocol == ProtocolHTTP {
		sink, addr = startHTTPSink(t)
	} else {
		sink, addr = startGRPCSink(t)
	}
	cfg := DefaultConfig()
	cfg.Endpoint = addr
	cfg.Protocol = protocol
	if mutate != nil {
		mutate(&cfg)
	}
	sim, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := sim.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return sim, sink
}

func runN(t *testing.T, sim *Simulator, n int) []Run {
	t.Helper()
	var runs []Run
	if err := sim.Run(context.Background(), n, 0, func(r Run) { runs = append(runs, r) }); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := sim.Shutdown(ctx); err != nil { // exports every run
		t.Fatal(err)
	}
	return runs
}

// qualityName names q in subtests and goldens.
func qualityName(q Quality) string {
	if q == Degraded {
		return "degraded"
	}
	return "good"
}

func str(m pcommon.Map, k string) string {
	v, ok := m.Get(k)
	if !ok {
		return ""
	}
	return v.AsString()
}

func has(m pcommon.Map, k string) bool {
	_, ok := m.Get(k)
	return ok
}

func intAttr(m pcommon.Map, k string) int64 {
	v, ok := m.Get(k)
	if !ok {
		return -1
	}
	return v.Int()
}

// byStart sorts spans by start time.
func byStart(spans []spanView) {
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].StartTimestamp() < spans[j].StartTimestamp() })
}

// checkRun asserts that the spans of run match its ground truth.
func checkRun(t *testing.T, run Run, spans []spanView, eventForm bool) {
	t.Helper()
	byStart(spans)
	var root spanView
	var chats, tools []spanView
	for _, s := range spans {
		switch {
		case s.ParentSpanID().IsEmpty():
			if root.Span != (ptrace.Span{}) {
				t.Fatalf("trace %s has two roots", run.TraceID)
			}
			root = s
		case s.Kind() == ptrace.SpanKindClient:
			chats = append(chats, s)
		default:
			tools = append(tools, s)
		}
	}
	if root.Span == (ptrace.Span{}) {
		t.Fatalf("trace %s: no root span among %d", run.TraceID, len(spans))
	}
	ra := root.Attributes()
	if root.Name() != "invoke_agent "+run.Agent || root.Kind() != ptrace.SpanKindInternal {
		t.Errorf("root = %q kind %v", root.Name(), root.Kind())
	}
	if root.SpanID().String() != run.SpanID {
		t.Errorf("root span id %s, run says %s", root.SpanID(), run.SpanID)
	}
	for k, want := range map[string]string{
		"gen_ai.operation.name":  "invoke_agent",
		"gen_ai.agent.name":      run.Agent,
		"gen_ai.request.model":   run.Model,
		"gen_ai.conversation.id": run.ConversationID,
		"gen_ai.agent.version":   run.Release,
	} {
		if got := str(ra, k); got != want {
			t.Errorf("root %s = %q, want %q", k, got, want)
		}
	}
	if str(ra, "gen_ai.provider.name") == "" {
		t.Error("root has no gen_ai.provider.name")
	}
	for k, want := range map[string]string{"service.name": run.Service, "service.version": run.Release, "deployment.environment.name": "demo"} {
		if got := str(root.Resource, k); got != want {
			t.Errorf("resource %s = %q, want %q", k, got, want)
		}
	}
	if d := time.Duration(root.EndTimestamp() - root.StartTimestamp()); d < 300*time.Millisecond || d > time.Minute {
		t.Errorf("simulated run took %v", d)
	}
	if !root.StartTimestamp().AsTime().Equal(run.Start) || !root.EndTimestamp().AsTime().Equal(run.End) {
		t.Errorf("root times %v..%v, run says %v..%v", root.StartTimestamp().AsTime(), root.EndTimestamp().AsTime(), run.Start, run.End)
	}
	if run.ErrorType != "" {
		if root.Status().Code() != ptrace.StatusCodeError || str(ra, "error.type") != run.ErrorType {
			t.Errorf("failed run: root status %v error.type %q, want ERROR %q", root.Status().Code(), str(ra, "error.type"), run.ErrorType)
		}
	} else if root.Status().Code() == ptrace.StatusCodeError {
		t.Errorf("root is ERROR but the run has no error")
	}
	if run.Failed != (run.ErrorType != "" || run.Output == "") {
		t.Errorf("Failed=%v with error %q output %q", run.Failed, run.ErrorType, run.Output)
	}

	if eventForm {
		for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions"} {
			if has(ra, k) {
				t.Errorf("event form: root has %s", k)
			}
		}
	} else {
		var sys []messagePart
		mustUnmarshal(t, str(ra, "gen_ai.system_instructions"), &sys)
		if len(sys) != 1 || sys[0].Type != "text" || sys[0].Content == "" {
			t.Errorf("system instructions = %+v", sys)
		}
		var in []chatMessage
		mustUnmarshal(t, str(ra, "gen_ai.input.messages"), &in)
		if len(in) != 1 || in[0].Role != "user" || in[0].Parts[0].Content != run.Input {
			t.Errorf("root input messages = %+v, want user %q", in, run.Input)
		}
		if run.Output == "" {
			if has(ra, "gen_ai.output.messages") {
				t.Error("run without answer has gen_ai.output.messages")
			}
		} else {
			var out []chatMessage
			mustUnmarshal(t, str(ra, "gen_ai.output.messages"), &out)
			if len(out) != 1 || out[0].FinishReason != "stop" || out[0].Parts[0].Content != run.Output {
				t.Errorf("root output = %+v, want %q", out, run.Output)
			}
		}
	}

	// Chat spans: children of the root, usage summed on the root, tool_call
	// parts naming the calls in order.
	if len(chats) != run.LLMCalls {
		t.Fatalf("%d chat spans, run says %d", len(chats), run.LLMCalls)
	}
	var sumIn, sumOut int64
	var requested []messagePart
	for i, c := range chats {
		ca := c.Attributes()
		if c.Name() != "chat "+run.Model || c.ParentSpanID() != root.SpanID() || str(ca, "gen_ai.operation.name") != "chat" {
			t.Errorf("chat %d: %q parent %s op %q", i, c.Name(), c.ParentSpanID(), str(ca, "gen_ai.operation.name"))
		}
		var defs []toolDefinition
		mustUnmarshal(t, str(ca, "gen_ai.tool.definitions"), &defs)
		if len(defs) == 0 || defs[0].Type != "function" || len(defs[0].Parameters) == 0 {
			t.Errorf("chat %d tool definitions = %+v", i, defs)
		}
		if c.Status().Code() == ptrace.StatusCodeError {
			if i != len(chats)-1 || run.ErrorType == "" || !has(ca, "error.type") || has(ca, "gen_ai.response.id") {
				t.Errorf("chat %d failed unexpectedly", i)
			}
			continue
		}
		sumIn += intAttr(ca, "gen_ai.usage.input_tokens")
		sumOut += intAttr(ca, "gen_ai.usage.output_tokens")
		if str(ca, "gen_ai.response.id") == "" || str(ca, "gen_ai.response.model") == "" {
			t.Errorf("chat %d lacks response id/model", i)
		}
		fr, _ := ca.Get("gen_ai.response.finish_reasons")
		if fr.Type() != pcommon.ValueTypeSlice || fr.Slice().Len() != 1 {
			t.Errorf("chat %d finish reasons = %v", i, fr.AsString())
		}
		if eventForm {
			if has(ca, "gen_ai.input.messages") || has(ca, "gen_ai.output.messages") {
				t.Errorf("event form: chat %d carries message attributes", i)
			}
			continue
		}
		var in, out []chatMessage
		mustUnmarshal(t, str(ca, "gen_ai.input.messages"), &in)
		mustUnmarshal(t, str(ca, "gen_ai.output.messages"), &out)
		if len(in) != 1+2*i || in[0].Parts[0].Content != run.Input {
			t.Errorf("chat %d: %d input messages", i, len(in))
		}
		if len(out) != 1 {
			t.Fatalf("chat %d: %d output messages", i, len(out))
		}
		for _, p := range out[0].Parts {
			if p.Type == "tool_call" {
				requested = append(requested, p)
			}
		}
		if i == len(chats)-1 && run.ErrorType == "" {
			want := "stop"
			if run.Output == "" {
				want = "length"
			}
			if out[0].FinishReason != want {
				t.Errorf("last chat finish_reason %q, want %q", out[0].FinishReason, want)
			}
		}
	}
	if in, out := intAttr(ra, "gen_ai.usage.input_tokens"), intAttr(ra, "gen_ai.usage.output_tokens"); in != sumIn || out != sumOut || in <= 0 {
		t.Errorf("root usage %d/%d, chats sum to %d/%d", in, out, sumIn, sumOut)
	}
	if !eventForm {
		if len(requested) != len(run.ToolCalls) {
			t.Fatalf("%d tool_call parts, run made %d calls", len(requested), len(run.ToolCalls))
		}
		for i, p := range requested {
			c := run.ToolCalls[i]
			if p.ID != c.ID || p.Name != c.Name || !sameArgs(p.Arguments, c.Arguments) {
				t.Errorf("tool_call part %d = %s %s %s, call is %s %s %s", i, p.ID, p.Name, p.Arguments, c.ID, c.Name, c.Arguments)
			}
		}
	}

	// Tool spans: one per call, in order, children of the root.
	if len(tools) != len(run.ToolCalls) {
		t.Fatalf("%d tool spans, run made %d calls", len(tools), len(run.ToolCalls))
	}
	for i, s := range tools {
		c := run.ToolCalls[i]
		a := s.Attributes()
		if s.Name() != "execute_tool "+c.Name || s.Kind() != ptrace.SpanKindInternal || s.ParentSpanID() != root.SpanID() {
			t.Errorf("tool span %d = %q kind %v", i, s.Name(), s.Kind())
		}
		for k, want := range map[string]string{
			"gen_ai.operation.name":      "execute_tool",
			"gen_ai.tool.name":           c.Name,
			"gen_ai.tool.call.id":        c.ID,
			"gen_ai.tool.call.arguments": c.Arguments,
		} {
			if got := str(a, k); got != want {
				t.Errorf("tool span %d %s = %q, want %q", i, k, got, want)
			}
		}
		if c.ErrorType != "" {
			if s.Status().Code() != ptrace.StatusCodeError || s.Status().Message() != c.Error || str(a, "error.type") != c.ErrorType {
				t.Errorf("failed call %d: status %v %q error.type %q", i, s.Status().Code(), s.Status().Message(), str(a, "error.type"))
			}
			if has(a, "gen_ai.tool.call.result") {
				t.Errorf("failed call %d has a result", i)
			}
			if s.Events().Len() != 1 || s.Events().At(0).Name() != "exception" {
				t.Errorf("failed call %d has no exception event", i)
			}
		} else if s.Status().Code() == ptrace.StatusCodeError || str(a, "gen_ai.tool.call.result") != c.Result {
			t.Errorf("call %d: status %v result %q, want %q", i, s.Status().Code(), str(a, "gen_ai.tool.call.result"), c.Result)
		}
	}
	for _, s := range append(chats, tools...) {
		if s.StartTimestamp() < root.StartTimestamp() || s.EndTimestamp() > root.EndTimestamp() || s.EndTimestamp() < s.StartTimestamp() {
			t.Errorf("span %q lies outside its run", s.Name())
		}
	}
}

func sameArgs(part json.RawMessage, args string) bool {
	if json.Valid([]byte(args)) {
		var a, b any
		return json.Unmarshal(part, &a) == nil && json.Unmarshal([]byte(args), &b) == nil && mustMarshal(a) == mustMarshal(b)
	}
	var s string
	return json.Unmarshal(part, &s) == nil && s == args
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func mustUnmarshal(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("unmarshal %q: %v", s, err)
	}
}

func TestSpansPerScenario(t *testing.T) {
	for _, q := range []Quality{Good, Degraded} {
		t.Run(qualityName(q), func(t *testing.T) {
			sim, sink := newTestSim(t, ProtocolGRPC, func(c *Config) { c.Quality = q; c.Seed = 11 })
			runs := runN(t, sim, 30)
			seen := map[string]bool{}
			for _, run := range runs {
				seen[run.Scenario] = true
				checkRun(t, run, sink.spans(run.TraceID), false)
			}
			for _, sc := range []string{"on-device", "customer-support", "content-creation"} {
				if !seen[sc] {
					t.Errorf("scenario %s never ran", sc)
				}
			}
			if n := len(sink.logRecords("")); n != 0 {
				t.Errorf("attribute form sent %d log records", n)
			}
		})
	}
}

func TestEventForm(t *testing.T) {
	sim, sink := newTestSim(t, ProtocolGRPC, func(c *Config) { c.EventForm = true; c.Quality = Degraded; c.Seed = 5 })
	runs := runN(t, sim, 24)
	for _, run := range runs {
		spans := sink.spans(run.TraceID)
		checkRun(t, run, spans, true)
		byStart(spans)
		logs := sink.logRecords(run.TraceID)
		bySpan := map[string][]logView{}
		for _, l := range logs {
			bySpan[l.SpanID().String()] = append(bySpan[l.SpanID().String()], l)
		}
		var calls []Call
		chatIdx := 0
		for _, s := range spans {
			if s.Kind() != ptrace.SpanKindClient {
				if !s.ParentSpanID().IsEmpty() {
					calls = append(calls, run.ToolCalls[len(calls)])
				}
				if got := len(bySpan[s.SpanID().String()]); got != 0 {
					t.Errorf("%s carries %d log records", s.Name(), got)
				}
				continue
			}
			recs := bySpan[s.SpanID().String()]
			checkChatEvents(t, run, calls, chatIdx, s, recs)
			chatIdx++
		}
	}
}

// checkChatEvents asserts the v1.28–1.36 events of one chat span: system,
// user, then an assistant message and one tool message per call for every
// earlier turn, then the choice.
func checkChatEvents(t *testing.T, run Run, before []Call, idx int, chat spanView, recs []logView) {
	t.Helper()
	var names []string
	for _, r := range recs {
		names = append(names, r.EventName())
		if r.TraceID().String() != run.TraceID || str(r.Attributes(), "gen_ai.system") == "" || r.Body().Type() != pcommon.ValueTypeMap {
			t.Errorf("record %s: trace %s system %q body %v", r.EventName(), r.TraceID(), str(r.Attributes(), "gen_ai.system"), r.Body().Type())
		}
		if str(r.Resource, "service.version") != run.Release {
			t.Errorf("record resource version %q", str(r.Resource, "service.version"))
		}
	}
	if len(recs) < 2 || names[0] != EventSystemMessage || names[1] != EventUserMessage {
		t.Fatalf("chat %d events = %v", idx, names)
	}
	if got := str(recs[1].Body().Map(), "content"); got != run.Input {
		t.Errorf("user message %q, want %q", got, run.Input)
	}
	rest := recs[2:]
	failed := chat.Status().Code() == ptrace.StatusCodeError
	if !failed {
		last := rest[len(rest)-1]
		rest = rest[:len(rest)-1]
		if last.EventName() != EventChoice {
			t.Fatalf("chat %d last event %s", idx, last.EventName())
		}
		b := last.Body().Map()
		msg, _ := b.Get("message")
		fr := str(b, "finish_reason")
		if fr == "" || intAttr(b, "index") != 0 || msg.Type() != pcommon.ValueTypeMap {
			t.Errorf("choice body = %v", b.AsRaw())
		}
		if idx == run.LLMCalls-1 {
			if got := str(msg.Map(), "content"); got != run.Output {
				t.Errorf("final choice content %q, want %q", got, run.Output)
			}
		} else {
			tc, _ := msg.Map().Get("tool_calls")
			if fr != "tool_calls" || tc.Type() != pcommon.ValueTypeSlice || tc.Slice().Len() == 0 {
				t.Errorf("choice %d: finish %q tool_calls %v", idx, fr, tc.AsString())
			}
		}
	} else if rest[len(rest)-1].EventName() == EventChoice {
		t.Errorf("failed chat %d has a choice", idx)
	}
	// Earlier turns: assistant tool_calls then the tool messages, covering
	// exactly the calls made before this chat.
	ci := 0
	for _, r := range rest {
		b := r.Body().Map()
		switch r.EventName() {
		case EventAssistantMessage:
			tc, _ := b.Get("tool_calls")
			for j := 0; j < tc.Slice().Len(); j++ {
				m := tc.Slice().At(j).Map()
				fn, _ := m.Get("function")
				c := before[ci+j]
				if str(m, "id") != c.ID || str(m, "type") != "function" || str(fn.Map(), "name") != c.Name || str(fn.Map(), "arguments") != c.Arguments {
					t.Errorf("assistant tool_call %v, want %+v", m.AsRaw(), c)
				}
			}
		case EventToolMessage:
			c := before[ci]
			ci++
			if str(b, "id") != c.ID || str(b, "content") == "" {
				t.Errorf("tool message %v, want id %s", b.AsRaw(), c.ID)
			}
			if c.ErrorType == "" && str(b, "content") != c.Result {
				t.Errorf("tool message content %q, want %q", str(b, "content"), c.Result)
			}
		default:
			t.Errorf("unexpected event %s in history", r.EventName())
		}
	}
	if ci != len(before) {
		t.Errorf("chat %d replays %d tool messages, %d calls came before", idx, ci, len(before))
	}
}

// TestDegradedWorseThanGood compares 200 runs of each release, counted from
// what the receiver got, with a fixed seed.
func TestDegradedWorseThanGood(t *testing.T) {
	type counts struct{ toolErrors, failedRuns, noAnswer, repeated, invalid int }
	measure := func(q Quality) counts {
		sim, sink := newTestSim(t, ProtocolGRPC, func(c *Config) { c.Quality = q; c.Seed = 42 })
		runs := runN(t, sim, 200)
		var c counts
		for _, s := range sink.spans("") {
			if s.Status().Code() != ptrace.StatusCodeError {
				continue
			}
			switch str(s.Attributes(), "gen_ai.operation.name") {
			case "execute_tool":
				c.toolErrors++
			case "invoke_agent":
				c.failedRuns++
			}
		}
		for _, r := range runs {
			if r.Output == "" {
				c.noAnswer++
			}
			for _, call := range r.ToolCalls {
				if call.Repeated {
					c.repeated++
				}
				if call.InvalidArguments != "" {
					c.invalid++
				}
			}
		}
		return c
	}
	good, bad := measure(Good), measure(Degraded)
	t.Logf("good %+v degraded %+v", good, bad)
	if bad.toolErrors <= 2*good.toolErrors || bad.failedRuns <= good.failedRuns || bad.noAnswer <= good.noAnswer ||
		bad.repeated <= good.repeated || bad.invalid <= good.invalid {
		t.Errorf("degraded is not worse on every count: good %+v degraded %+v", good, bad)
	}
	if good.failedRuns > 10 || good.toolErrors > 40 {
		t.Errorf("good release fails too often: %+v", good)
	}
}

func TestReleaseAndQualitySwitch(t *testing.T) {
	sim, sink := newTestSim(t, ProtocolGRPC, nil)
	var mu sync.Mutex
	var runs []Run
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				r, err := sim.RunOne(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				runs = append(runs, r)
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < 10; i++ {
		if i%2 == 0 {
			sim.SetRelease("2.0.0")
			sim.SetQuality(Degraded)
		} else {
			sim.SetRelease("1.0.0")
			sim.SetQuality(Good)
		}
	}
	wg.Wait()
	sim.SetRelease("")
	kept, err := sim.RunOne(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if kept.Release != "1.0.0" {
		t.Errorf("empty SetRelease changed the release to %q", kept.Release)
	}
	runs = append(runs, kept)
	sim.SetRelease("3.1.0")
	sim.SetQuality(Degraded)
	last, err := sim.RunOne(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	runs = append(runs, last)
	if err := sim.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if last.Release != "3.1.0" || last.Quality != Degraded {
		t.Errorf("last run release %q quality %v", last.Release, last.Quality)
	}
	for _, r := range runs {
		spans := sink.spans(r.TraceID)
		if len(spans) == 0 {
			t.Fatalf("run %s (release %s) never arrived", r.TraceID, r.Release)
		}
		for _, s := range spans {
			if got := str(s.Resource, "service.version"); got != r.Release {
				t.Errorf("span of release %s arrived as %s", r.Release, got)
			}
		}
	}
}

func TestHTTPWithHeadersAndEvents(t *testing.T) {
	sim, sink := newTestSim(t, ProtocolHTTP, func(c *Config) {
		c.EventForm = true
		c.Headers = map[string]string{"Authorization": "Bearer demo-token"}
	})
	runs := runN(t, sim, 3)
	for _, run := range runs {
		checkRun(t, run, sink.spans(run.TraceID), true)
		if len(sink.logRecords(run.TraceID)) == 0 {
			t.Errorf("run %s: no log records over HTTP", run.TraceID)
		}
	}
	for _, h := range sink.allHeaders() {
		if got := h["Authorization"]; len(got) != 1 || got[0] != "Bearer demo-token" {
			t.Errorf("request header Authorization = %v", got)
		}
	}
}

func TestRunLoopAndShutdown(t *testing.T) {
	sim, _ := newTestSim(t, ProtocolGRPC, nil)
	n := 0
	if err := sim.Run(context.Background(), 5, time.Millisecond, func(Run) { n++ }); err != nil || n != 5 {
		t.Fatalf("Run(5) = %v after %d runs", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := 0
	if err := sim.Run(ctx, 0, 0, func(Run) {
		m++
		if m == 3 {
			cancel()
		}
	}); err != nil || m != 3 {
		t.Fatalf("endless Run stopped with %v after %d runs", err, m)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if err := sim.Run(ctx2, 4, 0, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Run(4) on a cancelled context = %v", err)
	}
	if err := sim.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := sim.RunOne(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("RunOne after Shutdown = %v", err)
	}
}
