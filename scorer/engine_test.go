package scorer

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// fakeMetric behaves as its score func says.
type fakeMetric struct {
	name  string
	needs Inputs
	score func(ctx context.Context, in *Instance) (Result, error)
}

func (m fakeMetric) Name() string  { return m.name }
func (m fakeMetric) Needs() Inputs { return m.needs }
func (m fakeMetric) Score(ctx context.Context, in *Instance) (Result, error) {
	return m.score(ctx, in)
}

// scoreOf returns a score func that always gives v.
func scoreOf(v float64) func(context.Context, *Instance) (Result, error) {
	return func(context.Context, *Instance) (Result, error) { return Result{Score: v}, nil }
}

// collectSink records exported evaluations.
type collectSink struct {
	mu  sync.Mutex
	evs []*Evaluation
	err error
}

func (s *collectSink) Export(_ context.Context, e *Evaluation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evs = append(s.evs, e)
	return s.err
}

func (s *collectSink) traceIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, len(s.evs))
	for i, e := range s.evs {
		ids[i] = e.Trajectory.TraceID
	}
	slices.Sort(ids)
	return ids
}

// testEngine builds an engine on a fresh registry, with at most one
// EngineOptions.
func testEngine(t *testing.T, cfg Config, metrics []Metric, sink Sink, opts ...EngineOptions) (*Engine, *prometheus.Registry, *telemetry.Drops) {
	t.Helper()
	reg := prometheus.NewRegistry()
	drops := telemetry.NewDrops(reg)
	var o EngineOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	e, err := NewEngine(cfg, telemetry.Settings{Registerer: reg, Drops: drops}, metrics, sink, o)
	if err != nil {
		t.Fatal(err)
	}
	return e, reg, drops
}

// run builds a small trajectory with an id.
func run(id string) *agentrun.Trajectory {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	return &agentrun.Trajectory{
		TraceID: id, Start: start, End: start.Add(2 * time.Second),
		ToolCalls: []agentrun.ToolCall{{Name: "a", Arguments: `{}`}},
	}
}

func TestEvaluateOutcomes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MetricTimeout = 20 * time.Millisecond
	cases := []struct {
		name      string
		metric    fakeMetric
		wantScore *float64
		wantNA    bool
		wantErr   string // reason
	}{
		{name: "scored", metric: fakeMetric{score: scoreOf(0.5)}, wantScore: ptr(0.5)},
		{name: "needs missing", metric: fakeMetric{needs: InReference, score: func(context.Context, *Instance) (Result, error) {
			panic("must not be called")
		}}, wantNA: true},
		{name: "not applicable", metric: fakeMetric{score: func(context.Context, *Instance) (Result, error) {
			return Result{}, fmt.Errorf("no calls: %w", ErrNotApplicable)
		}}, wantNA: true},
		{name: "error", metric: fakeMetric{score: func(context.Context, *Instance) (Result, error) {
			return Result{}, errors.New("judge unavailable")
		}}, wantErr: ReasonError},
		{name: "panic", metric: fakeMetric{score: func(context.Context, *Instance) (Result, error) {
			panic("metric bug")
		}}, wantErr: ReasonPanic},
		{name: "timeout honoured", metric: fakeMetric{score: func(ctx context.Context, _ *Instance) (Result, error) {
			<-ctx.Done()
			return Result{}, ctx.Err()
		}}, wantErr: ReasonTimeout},
		{name: "timeout ignored", metric: fakeMetric{score: func(ctx context.Context, _ *Instance) (Result, error) {
			<-ctx.Done() // a score computed after the deadline is discarded
			return Result{Score: 1}, nil
		}}, wantErr: ReasonTimeout},
		{name: "NaN", metric: fakeMetric{score: scoreOf(math.NaN())}, wantErr: ReasonInvalidScore},
		{name: "+Inf", metric: fakeMetric{score: scoreOf(math.Inf(1))}, wantErr: ReasonInvalidScore},
		{name: "-Inf", metric: fakeMetric{score: scoreOf(math.Inf(-1))}, wantErr: ReasonInvalidScore},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.metric.name = "m"
			e, reg, _ := testEngine(t, cfg, []Metric{tc.metric}, &collectSink{})
			ev := e.Evaluate(context.Background(), FromTrajectory(run("t1")))
			if ev.Trajectory == nil || ev.Trajectory.TraceID != "t1" {
				t.Errorf("evaluation lost its trajectory")
			}
			na := testutil.ToFloat64(e.tel.notApplicable.WithLabelValues("m"))
			switch {
			case tc.wantScore != nil:
				if len(ev.Results) != 1 || ev.Results[0].Score != *tc.wantScore || ev.Results[0].Metric != "m" {
					t.Fatalf("results = %+v", ev.Results)
				}
			case tc.wantNA:
				if len(ev.Results) != 0 || len(ev.Errors) != 0 || !slices.Equal(ev.NotApplicable, []string{"m"}) || na != 1 {
					t.Fatalf("got %+v, not_applicable counter %v", ev, na)
				}
			default:
				if len(ev.Results) != 0 || len(ev.Errors) != 1 || ev.Errors[0].Reason != tc.wantErr || ev.Errors[0].Metric != "m" {
					t.Fatalf("got results %+v errors %+v", ev.Results, ev.Errors)
				}
				if got := testutil.ToFloat64(e.tel.errors.WithLabelValues("m", tc.wantErr)); got != 1 {
					t.Errorf("errors_total{reason=%q} = %v, want 1", tc.wantErr, got)
				}
			}
			var errSum float64
			for _, r := range errorReasons() {
				errSum += testutil.ToFloat64(e.tel.errors.WithLabelValues("m", r))
			}
			if want := float64(len(ev.Errors)); errSum != want {
				t.Errorf("errors_total sum = %v, want %v", errSum, want)
			}
			if n, err := testutil.GatherAndCount(reg, "evalsidecar_scorer_duration_seconds"); err != nil || n != 1 {
				t.Errorf("duration series: %d, %v", n, err)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestSubmitQueueFull(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize = 2
	e, _, drops := testEngine(t, cfg, nil, &collectSink{})
	for i := range 2 {
		if err := e.Submit(context.Background(), run(fmt.Sprint(i))); err != nil {
			t.Fatalf("submit %d: %v", i, err)
		}
	}
	err := e.Submit(context.Background(), run("overflow"))
	r, ok := errs.AsRefused(err)
	if !ok || r.Reason != "scorer_queue_full" || r.RetryAfter <= 0 {
		t.Fatalf("full queue: err = %v, want errs.Refused scorer_queue_full", err)
	}
	if got := testutil.ToFloat64(drops.Vec().WithLabelValues("scorer", "queue_full")); got != 1 {
		t.Errorf("dropped_total{queue_full} = %v, want 1", got)
	}
	if e.QueueLen() != 2 {
		t.Errorf("QueueLen = %d, want 2", e.QueueLen())
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestSubmitRejectsNil(t *testing.T) {
	e, _, _ := testEngine(t, DefaultConfig(), nil, &collectSink{})
	if err := e.Submit(context.Background(), nil); err == nil || !errs.IsPermanent(err) {
		t.Errorf("nil trajectory: %v", err)
	}
	noSink, _, _ := testEngine(t, DefaultConfig(), nil, nil)
	if err := noSink.Submit(context.Background(), run("x")); err == nil || !errs.IsPermanent(err) {
		t.Errorf("no sink: %v", err)
	}
}

func TestShutdownDrainsQueue(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize = 100
	cfg.SendingQueue.NumConsumers = 3
	ms, err := NewRegistry().Build(cfg.Metrics)
	if err != nil {
		t.Fatal(err)
	}
	sink := &collectSink{}
	e, reg, drops := testEngine(t, cfg, ms, sink)
	var want []string
	for i := range 60 { // queued before the workers start
		id := fmt.Sprintf("t%03d", i)
		want = append(want, id)
		if err := e.Submit(context.Background(), run(id)); err != nil {
			t.Fatal(err)
		}
	}
	if got := testutil.ToFloat64(e.tel.queueLength); got != 60 {
		t.Errorf("queue_length gauge = %v, want 60", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.Start(ctx)
	cancel() // the start context's end does not stop the workers
	for i := 60; i < 90; i++ {
		id := fmt.Sprintf("t%03d", i)
		want = append(want, id)
		if err := e.Submit(context.Background(), run(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := sink.traceIDs(); !slices.Equal(got, want) {
		t.Fatalf("exported %d evaluations, want %d: %v", len(got), len(want), got)
	}
	for _, ev := range sink.evs {
		if len(ev.Results)+len(ev.NotApplicable)+len(ev.Errors) != len(ms) {
			t.Fatalf("evaluation does not account for every metric: %+v", ev)
		}
	}
	if got := testutil.ToFloat64(e.tel.evaluations); got != 90 {
		t.Errorf("evaluations_total = %v, want 90", got)
	}
	if n, _ := testutil.GatherAndCount(reg, "evalsidecar_dropped_total"); n != 0 {
		t.Errorf("drops counted on a clean shutdown")
	}
	err = e.Submit(context.Background(), run("late"))
	if r, ok := errs.AsRefused(err); !ok || r.Reason != "shutting_down" {
		t.Errorf("submit after shutdown: %v", err)
	}
	if got := testutil.ToFloat64(drops.Vec().WithLabelValues("scorer", "shutting_down")); got != 1 {
		t.Errorf("dropped_total{shutting_down} = %v, want 1", got)
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
	waitGoroutines(t, before)
}

// waitGoroutines fails when the goroutine count does not return to at
// most n; it polls because exiting goroutines leave asynchronously.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutines leaked: %d > %d\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
}

func TestShutdownWithoutStartDrains(t *testing.T) {
	sink := &collectSink{}
	e, _, _ := testEngine(t, DefaultConfig(), []Metric{fakeMetric{name: "m", score: scoreOf(1)}}, sink)
	for i := range 5 {
		if err := e.Submit(context.Background(), run(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := len(sink.traceIDs()); got != 5 {
		t.Errorf("exported %d, want 5", got)
	}
}

func TestShutdownTimeoutCountsDrops(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := DefaultConfig()
	cfg.SendingQueue.NumConsumers = 1
	cfg.MetricTimeout = time.Hour
	var calls atomic.Int32
	entered := make(chan struct{}, 1)
	block := fakeMetric{name: "block", score: func(ctx context.Context, _ *Instance) (Result, error) {
		calls.Add(1)
		entered <- struct{}{}
		<-ctx.Done() // released only by Shutdown cancelling the workers
		return Result{}, ctx.Err()
	}}
	sink := &collectSink{}
	e, _, drops := testEngine(t, cfg, []Metric{block}, sink)
	for i := range 5 {
		if err := e.Submit(context.Background(), run(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	e.Start(context.Background())
	<-entered // one run is in flight, four are queued
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := e.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want context.Canceled", err)
	}
	if err := e.Shutdown(context.Background()); err != nil { // waits for the worker to return
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(drops.Vec().WithLabelValues("scorer", "shutdown_timeout")); got != 5 {
		t.Errorf("dropped_total{shutdown_timeout} = %v, want 5", got)
	}
	if n := len(sink.traceIDs()); n != 0 {
		t.Errorf("%d evaluations exported after an abandoned shutdown", n)
	}
	if calls.Load() != 1 {
		t.Errorf("metric called %d times, want 1", calls.Load())
	}
	waitGoroutines(t, before)
}

// slowInline is an inline (built-in style) metric that overruns.
type slowInline struct{ d time.Duration }

func (slowInline) Name() string  { return "slow_inline" }
func (slowInline) Needs() Inputs { return 0 }
func (slowInline) Inline()       {}
func (m slowInline) Score(context.Context, *Instance) (Result, error) {
	time.Sleep(m.d) // sleeps at least d: longer than the timeout below
	return Result{Score: 1}, nil
}

func TestInlineMetricTimeout(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MetricTimeout = time.Millisecond
	e, _, _ := testEngine(t, cfg, []Metric{slowInline{d: 5 * time.Millisecond}}, &collectSink{})
	ev := e.Evaluate(context.Background(), FromTrajectory(run("x")))
	if len(ev.Results) != 0 || len(ev.Errors) != 1 || ev.Errors[0].Reason != ReasonTimeout {
		t.Fatalf("got results %+v errors %+v, want one timeout", ev.Results, ev.Errors)
	}
}

// panicSink panics on every export.
type panicSink struct{}

func (panicSink) Export(context.Context, *Evaluation) error { panic("sink bug") }

func TestSinkPanicCounted(t *testing.T) {
	e, _, drops := testEngine(t, DefaultConfig(), []Metric{fakeMetric{name: "m", score: scoreOf(1)}}, panicSink{})
	e.Start(context.Background())
	for i := range 2 {
		if err := e.Submit(context.Background(), run(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(e.tel.sinkErrors); got != 2 {
		t.Errorf("scorer_sink_errors_total = %v, want 2", got)
	}
	if got := testutil.CollectAndCount(drops.Vec()); got != 0 {
		t.Errorf("%d dropped_total series, want none: the exporter counts its own drops", got)
	}
}

func TestSinkErrorCounted(t *testing.T) {
	sink := &collectSink{err: errors.New("exporter queue full")}
	e, _, drops := testEngine(t, DefaultConfig(), []Metric{fakeMetric{name: "m", score: scoreOf(1)}}, sink)
	e.Start(context.Background())
	for i := range 3 {
		if err := e.Submit(context.Background(), run(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(e.tel.sinkErrors); got != 3 {
		t.Errorf("scorer_sink_errors_total = %v, want 3", got)
	}
	if got := testutil.CollectAndCount(drops.Vec()); got != 0 {
		t.Errorf("%d dropped_total series, want none: the exporter counts its own drops", got)
	}
}

// TestConcurrentSubmitShutdown races submitters against Shutdown: every
// accepted trajectory is exported, every refused one is counted. Run with
// -race.
func TestConcurrentSubmitShutdown(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize = 16
	sink := &collectSink{}
	e, _, drops := testEngine(t, cfg, []Metric{fakeMetric{name: "m", score: scoreOf(1)}}, sink)
	e.Start(context.Background())
	var accepted, refused atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				err := e.Submit(context.Background(), run(fmt.Sprintf("%d-%d", g, i)))
				if err == nil {
					accepted.Add(1)
				} else if _, ok := errs.AsRefused(err); ok {
					refused.Add(1)
				} else {
					t.Errorf("unexpected error %v", err)
				}
			}
		}()
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if got := int64(len(sink.traceIDs())); got != accepted.Load() {
		t.Errorf("exported %d, accepted %d", got, accepted.Load())
	}
	counted := testutil.ToFloat64(drops.Vec().WithLabelValues("scorer", "queue_full")) +
		testutil.ToFloat64(drops.Vec().WithLabelValues("scorer", "shutting_down"))
	if int64(counted) != refused.Load() || accepted.Load()+refused.Load() != 1600 {
		t.Errorf("accepted %d + refused %d (counted %v) != 1600", accepted.Load(), refused.Load(), counted)
	}
}

func TestNewEngineErrors(t *testing.T) {
	bad := DefaultConfig()
	bad.SendingQueue.NumConsumers = 0
	if _, err := NewEngine(bad, telemetry.Settings{}, nil, nil, EngineOptions{}); err == nil {
		t.Error("invalid config accepted")
	}
	m := fakeMetric{name: "m", score: scoreOf(1)}
	if _, err := NewEngine(DefaultConfig(), telemetry.Settings{}, []Metric{m, m}, nil, EngineOptions{}); err == nil {
		t.Error("duplicate metric accepted")
	}
	reg := prometheus.NewRegistry()
	if _, err := NewEngine(DefaultConfig(), telemetry.Settings{Registerer: reg}, nil, nil, EngineOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := NewEngine(DefaultConfig(), telemetry.Settings{Registerer: reg}, nil, nil, EngineOptions{}); err == nil {
		t.Error("registering twice on one registry did not fail")
	}
}

func TestMetricsLint(t *testing.T) {
	ms, err := NewRegistry().Build(DefaultConfig().Metrics)
	if err != nil {
		t.Fatal(err)
	}
	_, reg, _ := testEngine(t, DefaultConfig(), ms, &collectSink{})
	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// TestBlockingSubmitWaitsForSpace: a blocking engine takes more
// trajectories than its queue holds without dropping any, and gives up
// only when the caller's context ends.
func TestBlockingSubmitWaitsForSpace(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize = 1
	cfg.SendingQueue.NumConsumers = 1
	sink := &collectSink{}
	e, _, drops := testEngine(t, cfg, []Metric{fakeMetric{name: "m", score: scoreOf(1)}}, sink, EngineOptions{Blocking: true})
	e.Start(context.Background())
	const n = 50
	for i := range n {
		if err := e.Submit(context.Background(), run(fmt.Sprint(i))); err != nil {
			t.Fatalf("submit %d: %v", i, err)
		}
	}
	if err := e.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := len(sink.traceIDs()); got != n {
		t.Errorf("%d exported, want %d", got, n)
	}
	if got := testutil.CollectAndCount(drops.Vec()); got != 0 {
		t.Errorf("%d drop series, want none", got)
	}

	// A full queue with no workers: Submit waits until its context ends.
	idle, _, drops2 := testEngine(t, cfg, []Metric{fakeMetric{name: "m", score: scoreOf(1)}}, &collectSink{}, EngineOptions{Blocking: true})
	if err := idle.Submit(context.Background(), run("a")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := idle.Submit(ctx, run("b")); !errors.Is(err, context.Canceled) {
		t.Errorf("submit into a full queue with a cancelled context: %v", err)
	}
	if got := testutil.ToFloat64(drops2.Vec().WithLabelValues("scorer", "queue_full")); got != 1 {
		t.Errorf("queue_full drops = %v, want 1", got)
	}
}
