package extractor

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	cases := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"quiet_period", func(c *Config) { c.QuietPeriod = 0 }, "quiet_period: must be > 0"},
		{"max_trace_age", func(c *Config) { c.MaxTraceAge = -1 }, "max_trace_age: must be > 0"},
		{"age_below_quiet", func(c *Config) { c.MaxTraceAge = c.QuietPeriod - time.Millisecond }, "max_trace_age: must be >= quiet_period"},
		{"max_live_traces", func(c *Config) { c.MaxLiveTraces = 0 }, "max_live_traces: must be > 0"},
		{"max_buffered_bytes", func(c *Config) { c.MaxBufferedBytes = 0 }, "max_buffered_bytes: must be > 0"},
		{"max_spans_per_trace", func(c *Config) { c.MaxSpansPerTrace = 0 }, "max_spans_per_trace: must be > 0"},
		{"max_attribute_value_bytes", func(c *Config) { c.MaxAttributeValueBytes = 1 }, "max_attribute_value_bytes: must be >= 16"},
		{"tick", func(c *Config) { c.Tick = 0 }, "tick: must be > 0"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.mutate(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate() = %v, want %q", err, tc.want)
			}
			if _, err := NewAssembler(c, telemetry.Settings{}, SinkFunc(nil)); err == nil {
				t.Fatal("NewAssembler accepted an invalid config")
			}
		})
	}
}

func TestReleaseAfterQuietPeriod(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	ctx := context.Background()
	run := agentRun(1)
	// children first, root later: not complete until the root has arrived
	if err := ta.ConsumeTraces(ctx, buildTraces(run[1:]...)); err != nil {
		t.Fatal(err)
	}
	ta.Cut(ta.now.Add(time.Minute), false)
	if len(ta.sink.all()) != 0 || ta.LiveTraces() != 1 {
		t.Fatalf("released before the root span arrived")
	}
	ta.now = ta.now.Add(time.Minute)
	if err := ta.ConsumeTraces(ctx, buildTraces(run[0])); err != nil {
		t.Fatal(err)
	}
	quiet := DefaultConfig().QuietPeriod
	ta.Cut(ta.now.Add(quiet-time.Millisecond), false)
	if len(ta.sink.all()) != 0 {
		t.Fatalf("released within the quiet period")
	}
	ta.Cut(ta.now.Add(quiet), false)
	got := ta.sink.all()
	if len(got) != 1 || ta.LiveTraces() != 0 {
		t.Fatalf("got %d trajectories, %d live", len(got), ta.LiveTraces())
	}
	if got[0].Output != "hello" || len(got[0].ToolCalls) != 1 {
		t.Errorf("trajectory = %+v", got[0])
	}
	if ta.outcome(OutcomeComplete) != 1 {
		t.Errorf("complete outcome not counted")
	}
	if v := counterValue(ta.m.live); v != 0 {
		t.Errorf("live gauge = %v", v)
	}
}

func TestMaxTraceAge(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	if err := ta.ConsumeTraces(context.Background(), buildTraces(agentRun(1)[1:]...)); err != nil {
		t.Fatal(err)
	}
	ta.Cut(ta.now.Add(5*time.Minute-time.Millisecond), false)
	if ta.LiveTraces() != 1 {
		t.Fatal("released before max_trace_age")
	}
	ta.Cut(ta.now.Add(5*time.Minute), false)
	if ta.LiveTraces() != 0 || ta.outcome(OutcomeMaxAge) != 1 || len(ta.sink.all()) != 1 {
		t.Fatalf("not released at max_trace_age: live=%d max_age=%v", ta.LiveTraces(), ta.outcome(OutcomeMaxAge))
	}
}

func TestAgentRootWithRemoteParent(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	run := agentRun(1)
	run[0].parent = 0x77 // the caller's span lives in another service
	for i := range run[1:] {
		run[1+i].start += time.Millisecond
	}
	if err := ta.ConsumeTraces(context.Background(), buildTraces(run...)); err != nil {
		t.Fatal(err)
	}
	ta.Cut(ta.now.Add(2*time.Second), false)
	if ta.outcome(OutcomeComplete) != 1 {
		t.Fatal("agent span with a parent outside the trace was not taken as the root")
	}
}

func TestLiveTracesCapEvictsOldest(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxLiveTraces = 2
	ta := newTestAssembler(t, cfg)
	for tr := byte(1); tr <= 3; tr++ {
		ta.now = ta.now.Add(time.Millisecond)
		if err := ta.ConsumeTraces(context.Background(), buildTraces(agentRun(tr)...)); err != nil {
			t.Fatal(err)
		}
		if ta.LiveTraces() > 2 {
			t.Fatalf("live traces %d over the cap", ta.LiveTraces())
		}
	}
	// the evicted run is extracted off the request path
	if n := len(ta.sink.all()); n != 0 {
		t.Fatalf("%d trajectories extracted on the request path", n)
	}
	select {
	case <-ta.wake:
	default:
		t.Fatal("the background release was not woken")
	}
	ta.releasePending(context.Background())
	got := ta.sink.all()
	if len(got) != 1 || got[0].TraceID != traceID(1).String() {
		t.Fatalf("want the oldest trace evicted, got %v", got)
	}
	if ta.outcome(OutcomeEvicted) != 1 {
		t.Errorf("eviction not counted")
	}
}

func TestBufferedBytesCap(t *testing.T) {
	probe := newTestAssembler(t, DefaultConfig())
	if err := probe.ConsumeTraces(context.Background(), buildTraces(agentRun(1)...)); err != nil {
		t.Fatal(err)
	}
	one := probe.BufferedBytes()

	cfg := DefaultConfig()
	cfg.MaxBufferedBytes = one + one/2
	ta := newTestAssembler(t, cfg)
	ctx := context.Background()
	if err := ta.ConsumeTraces(ctx, buildTraces(agentRun(1)...)); err != nil {
		t.Fatal(err)
	}
	if err := ta.ConsumeTraces(ctx, buildTraces(agentRun(2)...)); err != nil {
		t.Fatal(err)
	}
	if ta.BufferedBytes() > cfg.MaxBufferedBytes || ta.LiveTraces() != 1 {
		t.Fatalf("buffered %d bytes in %d traces, cap %d", ta.BufferedBytes(), ta.LiveTraces(), cfg.MaxBufferedBytes)
	}
	// while the evicted run waits for the background release, over half
	// the buffer, new data is refused
	err := ta.ConsumeTraces(ctx, buildTraces(agentRun(5)...))
	if r, ok := errs.AsRefused(err); !ok || r.Reason != "buffer_full" {
		t.Fatalf("with the release behind: %v, want refused buffer_full", err)
	}
	ta.releasePending(ctx)
	if ta.outcome(OutcomeEvicted) != 1 {
		t.Errorf("eviction not counted")
	}
	// one request larger than the whole buffer is refused, nothing kept
	big := append(agentRun(3), agentRun(4)...)
	err = ta.ConsumeTraces(ctx, buildTraces(big...))
	r, ok := errs.AsRefused(err)
	if !ok || r.Reason != "buffer_full" || r.RetryAfter != time.Second {
		t.Fatalf("err = %v, want refused buffer_full", err)
	}
	if ta.LiveTraces() != 1 {
		t.Errorf("refused request changed the buffer")
	}
}

func TestSpansPerTraceCap(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxSpansPerTrace = 2
	ta := newTestAssembler(t, cfg)
	if err := ta.ConsumeTraces(context.Background(), buildTraces(agentRun(1)...)); err != nil {
		t.Fatal(err)
	}
	if got := ta.dropped(reasonSpansPer); got != 2 {
		t.Errorf("spans_per_trace drops = %v, want 2", got)
	}
	ta.Cut(ta.now.Add(2*time.Second), false)
	if ta.outcome(OutcomeTooLarge) != 1 {
		t.Fatalf("too_large outcome not counted")
	}
	got := ta.sink.all()
	if len(got) != 1 || !got[0].Truncated {
		t.Fatalf("trajectory of a too-large trace must be marked truncated: %+v", got)
	}
}

func TestAttributeValueTruncated(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxAttributeValueBytes = 128
	ta := newTestAssembler(t, cfg)
	run := agentRun(1)
	run[0].attrs[keyOutputMessages] = `[{"role":"assistant","parts":[{"type":"text","content":"` + strings.Repeat("é", 100) + `"}]}]`
	if err := ta.ConsumeTraces(context.Background(), buildTraces(run...)); err != nil {
		t.Fatal(err)
	}
	if err := ta.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := ta.sink.all()
	if len(got) != 1 || !got[0].Truncated {
		t.Fatalf("want a truncated trajectory, got %+v", got)
	}
	if ta.dropped(reasonTruncated) != 1 {
		t.Errorf("truncation not counted")
	}
	// the cut message list is closed again: the output is the text kept
	if o := got[0].Output; o == "" || strings.Trim(o, "é") != "" || len(o) > 128 {
		t.Errorf("output = %q, want the first é's of the answer", o)
	}
}

func TestTruncateKeepsUTF8(t *testing.T) {
	s := strings.Repeat("é", 10) // 2 bytes each
	for max := 0; max <= len(s); max++ {
		got, cut := cutValue(s, max)
		if len(got) > max || !strings.HasPrefix(s, got) || cut != (max < len(s)) {
			t.Fatalf("cutValue(%d) = %q, %v", max, got, cut)
		}
		if len(got)%2 != 0 {
			t.Fatalf("cutValue(%d) split a rune: %q", max, got)
		}
	}
}

func TestLateSpansDropped(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	ctx := context.Background()
	run := agentRun(1)
	if err := ta.ConsumeTraces(ctx, buildTraces(run[:3]...)); err != nil {
		t.Fatal(err)
	}
	ta.now = ta.now.Add(3 * time.Second)
	ta.Cut(ta.now, false)
	if err := ta.ConsumeTraces(ctx, buildTraces(run[3])); err != nil {
		t.Fatal(err)
	}
	if ta.LiveTraces() != 0 {
		t.Fatalf("late span started a new trace")
	}
	if counterValue(ta.m.late) != 1 || ta.dropped(reasonLate) != 1 {
		t.Fatalf("late span not counted")
	}
	if err := ta.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(ta.sink.all()); n != 1 {
		t.Fatalf("trace released %d times", n)
	}
}

// TestSinkErrorCountedOnce checks that a refused trajectory is left to the
// sink to count: the assembler adds no drop of its own.
func TestSinkErrorCountedOnce(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	ta.sink = nil
	ta.Assembler.sink = SinkFunc(func(context.Context, *agentrun.Trajectory) error { return errors.New("full") })
	if err := ta.ConsumeTraces(context.Background(), buildTraces(agentRun(1)...)); err != nil {
		t.Fatal(err)
	}
	if err := ta.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(ta.drops.Vec()); n != 0 {
		t.Fatalf("the assembler counted %d drop series for a refused trajectory, want none", n)
	}
}

func TestInvalidIDsCounted(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	td := buildTraces(agentRun(1)...)
	td.ResourceSpans().At(0).ScopeSpans().At(0).Spans().At(0).SetSpanID([8]byte{})
	if err := ta.ConsumeTraces(context.Background(), td); err != nil {
		t.Fatal(err)
	}
	if ta.dropped(reasonInvalidID) != 1 {
		t.Fatal("span without id not counted")
	}
}

// signalSink reports each submission on a channel.
type signalSink chan *agentrun.Trajectory

func (s signalSink) Submit(_ context.Context, t *agentrun.Trajectory) error {
	s <- t
	return nil
}

func TestRunReleasesAndStops(t *testing.T) {
	cfg := DefaultConfig()
	cfg.QuietPeriod = time.Nanosecond
	cfg.Tick = time.Millisecond
	sink := make(signalSink, 4)
	a, err := NewAssembler(cfg, telemetry.Settings{}, sink)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	if err := a.ConsumeTraces(ctx, buildTraces(agentRun(1)...)); err != nil {
		t.Fatal(err)
	}
	if tr := <-sink; tr.Agent != "bot" {
		t.Errorf("agent = %q", tr.Agent)
	}
	if err := a.ConsumeTraces(ctx, buildTraces(agentRun(2)[1:]...)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run returned %v", err)
	}
	if err := a.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if a.LiveTraces() != 0 || len(sink) != 1 {
		t.Fatalf("flush left %d traces, released %d", a.LiveTraces(), len(sink))
	}
	// no goroutine may still be running assembler code
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	for _, g := range strings.Split(stacks, "\n\n") {
		if strings.Contains(g, "extractor.(*Assembler)") {
			t.Errorf("goroutine left running:\n%s", g)
		}
	}
}
