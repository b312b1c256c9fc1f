package extractor

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// rootlessFlood returns n one-span traces whose spans name a parent that
// never arrives, with no attribute a convention reads, in requests of
// per spans.
func rootlessFlood(n, per int) []ptrace.Traces {
	var out []ptrace.Traces
	for i := 0; i < n; i += per {
		td := ptrace.NewTraces()
		ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
		for j := i; j < min(i+per, n); j++ {
			var id pcommon.TraceID
			binary.BigEndian.PutUint64(id[:8], 0xf100d)
			binary.BigEndian.PutUint64(id[8:], uint64(j)+1)
			s := ss.Spans().AppendEmpty()
			s.SetTraceID(id)
			s.SetSpanID(pcommon.SpanID{1, 2, 3, 4, 5, 6, 7, 8})
			s.SetParentSpanID(pcommon.SpanID{9, 9, 9, 9, 9, 9, 9, 9})
			s.SetName("GET /")
			s.Attributes().PutStr("http.route", "/")
		}
		out = append(out, td)
	}
	return out
}

// TestRunSurvivesRootlessFlood floods the buffer with 12,000 root-less
// trace ids (over max_live_traces) while an agent run is in progress: its
// model and tool spans are in, its agent span not yet. The run must come
// out whole once its agent span arrives, and the evicted fragments must
// be counted as incomplete, never as runs.
func TestRunSurvivesRootlessFlood(t *testing.T) {
	cfg := DefaultConfig()
	ta := newTestAssembler(t, cfg)
	ctx := context.Background()
	run := agentRun(1)
	if err := ta.ConsumeTraces(ctx, buildTraces(run[1:]...)); err != nil {
		t.Fatal(err)
	}
	const flood = 12000
	for _, td := range rootlessFlood(flood, 500) {
		ta.now = ta.now.Add(time.Millisecond)
		if err := ta.ConsumeTraces(ctx, td); err != nil {
			t.Fatal(err)
		}
	}
	if err := ta.ConsumeTraces(ctx, buildTraces(run[0])); err != nil {
		t.Fatal(err)
	}
	if n := ta.LiveTraces(); n > cfg.MaxLiveTraces {
		t.Fatalf("%d live traces, cap %d", n, cfg.MaxLiveTraces)
	}
	ta.now = ta.now.Add(cfg.QuietPeriod)
	ta.Cut(ta.now, false)

	got := ta.sink.all()
	if len(got) != 1 {
		t.Fatalf("%d trajectories, want the one run", len(got))
	}
	tr := got[0]
	if tr.Failed || tr.Agent != "bot" || tr.Output != "hello" || len(tr.ToolCalls) != 1 || len(tr.LLMCalls) != 2 {
		t.Errorf("run not whole: failed=%v (%s) agent=%q output=%q tools=%d llm=%d",
			tr.Failed, tr.ErrorType, tr.Agent, tr.Output, len(tr.ToolCalls), len(tr.LLMCalls))
	}
	if ta.dropped(reasonLate) != 0 {
		t.Errorf("%v spans dropped as late", ta.dropped(reasonLate))
	}
	if n := ta.outcome(OutcomeComplete); n != 1 {
		t.Errorf("%v traces released complete, want 1", n)
	}
	evicted := flood + 1 - cfg.MaxLiveTraces
	if n := ta.outcome(OutcomeIncomplete); n != float64(evicted) {
		t.Errorf("%v fragments released incomplete, want %d", n, evicted)
	}
	if n := ta.outcome(OutcomeEvicted) + ta.outcome(OutcomeNoGenAI); n != 0 {
		t.Errorf("%v traces released evicted or no_genai, want 0", n)
	}
	if n := ta.dropped(reasonIncomplete); n != float64(evicted) {
		t.Errorf("%v spans dropped as incomplete, want %d", n, evicted)
	}
}

// TestFloodEvictsItsOwnFragmentsFirst: a source flooding the buffer with
// root-less fragments evicts its own before another source's, so an
// agent whose runs are still fragments (only HTTP spans in so far) keeps
// them: the flood's service holds far more than its fair share.
func TestFloodEvictsItsOwnFragmentsFirst(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxLiveTraces = 1000
	ta := newTestAssembler(t, cfg)
	ctx := context.Background()
	const agentFragments = 5
	for i := range agentFragments {
		// an HTTP span of an agent's run: nothing a convention reads yet
		frag := spanSpec{trace: byte(i + 1), id: 9, parent: 1, name: "GET /weather", end: time.Millisecond, attrs: map[string]string{"http.route": "/weather"}}
		if err := ta.ConsumeTraces(ctx, buildTraces(frag)); err != nil {
			t.Fatal(err)
		}
	}
	for _, td := range rootlessFlood(5000, 500) {
		td.ResourceSpans().At(0).Resource().Attributes().PutStr("service.name", "flood")
		ta.now = ta.now.Add(time.Millisecond)
		if err := ta.ConsumeTraces(ctx, td); err != nil {
			t.Fatal(err)
		}
	}
	if n := ta.LiveTraces(); n > cfg.MaxLiveTraces {
		t.Fatalf("%d live traces, cap %d", n, cfg.MaxLiveTraces)
	}
	ta.mu.Lock()
	defer ta.mu.Unlock()
	for i := range agentFragments {
		if ta.traces[traceID(byte(i+1))] == nil {
			t.Errorf("the agent's fragment %d was evicted by the flood", i+1)
		}
	}
	if got := ta.fragSources.bySource["test-svc"]; got != agentFragments {
		t.Errorf("fragments counted for the agent: %d, want %d", got, agentFragments)
	}
	if ta.fragSources.total != len(ta.traces) {
		t.Errorf("fragment count %d, live traces %d (all fragments)", ta.fragSources.total, len(ta.traces))
	}
}
