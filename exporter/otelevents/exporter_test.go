package otelevents

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/configopaque"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/runhealth"
)

const (
	runTraceID = "0af7651916cd43dd8448eb211c80319c"
	runSpanID  = "b7ad6b7169203331"
)

// evaluation returns a run with one judged result (no pass rule, a label
// of its own) and one deterministic result (failed its pass rule), one
// failed judge metric and one failed built-in metric.
func evaluation() *scorer.Evaluation {
	failed := false
	return &scorer.Evaluation{
		Trajectory: &agentrun.Trajectory{TraceID: runTraceID, RootSpanID: runSpanID, Agent: "support"},
		Results: []scorer.Result{
			{Metric: "helpfulness_v1", Score: 0.75, Label: "pass", Explanation: "The answer addresses the refund question.",
				Judge: &scorer.JudgeUsage{Judge: "default", Provider: "openai", Model: "gpt-test", Calls: 1}},
			// tool_error_rate's pass rule (<= 0) failed; its label, if it had
			// one, moves to the metric label attribute.
			{Metric: runhealth.MetricToolErrorRate, Score: 0.25, Label: "errors", Passed: &failed, Details: map[string]any{"calls": 4, "errors": 1}},
		},
		Errors: []scorer.MetricError{
			{Metric: "groundedness_v1", Reason: "timeout", Err: errors.New("judge timed out")},
			{Metric: runhealth.MetricToolArgsValid, Reason: "panic", Err: errors.New("boom")},
		},
	}
}

// wantEvent is the expected content of one emitted record.
type wantEvent struct {
	attrs    map[string]any
	severity plog.SeverityNumber
}

func TestEndToEnd(t *testing.T) {
	judged := wantEvent{severity: plog.SeverityNumberInfo, attrs: map[string]any{
		"gen_ai.evaluation.name":        "helpfulness_v1",
		"gen_ai.evaluation.score.value": 0.75,
		"gen_ai.evaluation.score.label": "pass",
		"gen_ai.evaluation.explanation": "The answer addresses the refund question.",
	}}
	deterministic := wantEvent{severity: plog.SeverityNumberInfo, attrs: map[string]any{
		"gen_ai.evaluation.name":              "tool_error_rate",
		"gen_ai.evaluation.score.value":       0.25,
		"gen_ai.evaluation.score.label":       "fail",
		"evalsidecar.evaluation.metric_label": "errors",
	}}
	judgeFailed := wantEvent{severity: plog.SeverityNumberWarn, attrs: map[string]any{
		"gen_ai.evaluation.name": "groundedness_v1",
		"error.type":             "timeout",
	}}
	builtinFailed := wantEvent{severity: plog.SeverityNumberWarn, attrs: map[string]any{
		"gen_ai.evaluation.name": "tool_args_valid",
		"error.type":             "panic",
	}}
	cases := []struct {
		name       string
		protocol   string
		url        bool
		allMetrics bool
		want       []wantEvent
	}{
		{name: "grpc judged only", protocol: ProtocolGRPC, want: []wantEvent{judged, judgeFailed}},
		{name: "grpc all metrics", protocol: ProtocolGRPC, allMetrics: true, want: []wantEvent{judged, deterministic, judgeFailed, builtinFailed}},
		{name: "http judged only", protocol: ProtocolHTTP, want: []wantEvent{judged, judgeFailed}},
		{name: "http URL all metrics", protocol: ProtocolHTTP, url: true, allMetrics: true, want: []wantEvent{judged, deterministic, judgeFailed, builtinFailed}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			col, addr := startCollector(t, tc.protocol)
			cfg := DefaultConfig()
			cfg.Enabled = true
			cfg.Protocol = tc.protocol
			cfg.Endpoint = addr
			if tc.url {
				cfg.Endpoint = "http://" + addr + "/v1/logs"
			}
			cfg.TLS.Insecure = true
			cfg.AllMetrics = tc.allMetrics
			cfg.Headers = configopaque.Map{"x-api-key": "secret-key"}
			cfg.ResourceAttributes = map[string]string{"deployment.environment.name": "test"}
			x, _, drops := newTestExporter(t, cfg, nil)
			if err := x.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := x.Export(context.Background(), evaluation()); err != nil {
				t.Fatal(err)
			}
			shutdown(t, x)

			got := col.records()
			if len(got) != len(tc.want) {
				t.Fatalf("received %d records, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				r := got[i]
				rec := r.record
				if rec.EventName() != EventName {
					t.Errorf("record %d: event name %q, want %q", i, rec.EventName(), EventName)
				}
				if attrs := rec.Attributes().AsRaw(); !maps.Equal(attrs, w.attrs) {
					t.Errorf("record %d: attributes %v, want %v", i, attrs, w.attrs)
				}
				if got, want := rec.TraceID().String(), runTraceID; got != want {
					t.Errorf("record %d: trace id %s, want %s", i, got, want)
				}
				if got, want := rec.SpanID().String(), runSpanID; got != want {
					t.Errorf("record %d: span id %s, want %s", i, got, want)
				}
				if rec.Flags() != plog.DefaultLogRecordFlags.WithIsSampled(true) {
					t.Errorf("record %d: flags %v, want sampled", i, rec.Flags())
				}
				if rec.SeverityNumber() != w.severity {
					t.Errorf("record %d: severity %v, want %v", i, rec.SeverityNumber(), w.severity)
				}
				if !rec.Timestamp().AsTime().Equal(testNow) {
					t.Errorf("record %d: timestamp %v, want %v", i, rec.Timestamp().AsTime(), testNow)
				}
				if rec.Body().Type() != pcommon.ValueTypeEmpty {
					t.Errorf("record %d: body %v, want none", i, rec.Body().AsRaw())
				}
				wantRes := map[string]any{"service.name": DefaultServiceName, "deployment.environment.name": "test"}
				if !maps.Equal(r.resource, wantRes) {
					t.Errorf("record %d: resource %v, want %v", i, r.resource, wantRes)
				}
				if r.scope != ScopeName {
					t.Errorf("record %d: scope %q, want %q", i, r.scope, ScopeName)
				}
			}
			for i, h := range col.headers {
				if h["x-api-key"] != "secret-key" {
					t.Errorf("request %d: x-api-key %q, want the configured header", i, h["x-api-key"])
				}
			}
			exported, failed, droppedN := outcomes(t, x)
			if exported != float64(len(tc.want)) || failed != 0 || droppedN != 0 {
				t.Errorf("outcomes exported=%v failed=%v dropped=%v, want %d/0/0", exported, failed, droppedN, len(tc.want))
			}
			if n := totalDrops(drops); n != 0 {
				t.Errorf("%v drops counted, want none", n)
			}
		})
	}
}

func TestEndToEndNoTraceContext(t *testing.T) {
	col, addr := startCollector(t, ProtocolGRPC)
	cfg := DefaultConfig()
	cfg.Endpoint, cfg.TLS.Insecure = addr, true
	x, _, _ := newTestExporter(t, cfg, nil)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	offline := evaluation()
	offline.Trajectory = nil
	badIDs := evaluation()
	badIDs.Trajectory.TraceID = "not-hex"
	noSpan := evaluation()
	noSpan.Trajectory.RootSpanID = ""
	for _, e := range []*scorer.Evaluation{offline, badIDs, noSpan} {
		e.Errors = nil
		if err := x.Export(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	shutdown(t, x)
	got := col.records()
	if len(got) != 3 {
		t.Fatalf("received %d records, want 3", len(got))
	}
	for i, r := range got[:2] {
		if !r.record.TraceID().IsEmpty() || !r.record.SpanID().IsEmpty() {
			t.Errorf("record %d: trace %s span %s, want none", i, r.record.TraceID(), r.record.SpanID())
		}
	}
	if got[2].record.TraceID().String() != runTraceID || !got[2].record.SpanID().IsEmpty() {
		t.Errorf("run without root span: trace %s span %s, want the trace id only", got[2].record.TraceID(), got[2].record.SpanID())
	}
}

func TestQueueFullDropsAndCounts(t *testing.T) {
	fake := &fakeExporter{release: make(chan struct{})}
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize, cfg.SendingQueue.Batch.MaxSize = 3, 1
	x, _, drops := newTestExporter(t, cfg, fake)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	e := evaluation() // two events
	if err := x.Export(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	// One room left: the second evaluation's second event is dropped.
	if err := x.Export(context.Background(), e); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("Export = %v, want ErrQueueFull", err)
	}
	if err := x.Export(context.Background(), e); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("Export = %v, want ErrQueueFull", err)
	}
	if got := dropped(drops, dropQueueFull); got != 3 {
		t.Errorf("queue_full drops = %v, want 3", got)
	}
	close(fake.release)
	shutdown(t, x)
	exported, failed, droppedN := outcomes(t, x)
	if exported != 3 || failed != 0 || droppedN != 3 {
		t.Errorf("outcomes exported=%v failed=%v dropped=%v, want 3/0/3", exported, failed, droppedN)
	}
	if fake.count() != 3 {
		t.Errorf("exporter got %d records, want 3", fake.count())
	}
}

func TestExportFailureCounted(t *testing.T) {
	fake := &fakeExporter{err: errBoom}
	x, _, drops := newTestExporter(t, DefaultConfig(), fake)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := x.Export(context.Background(), evaluation()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = x.Shutdown(ctx) // the final flush fails too
	exported, failed, droppedN := outcomes(t, x)
	if exported != 0 || failed != 2 || droppedN != 0 {
		t.Errorf("outcomes exported=%v failed=%v dropped=%v, want 0/2/0", exported, failed, droppedN)
	}
	if got := dropped(drops, dropExportError); got != 2 {
		t.Errorf("export_error drops = %v, want 2", got)
	}
}

func TestShutdownDeadlineDropsInFlight(t *testing.T) {
	fake := &fakeExporter{release: make(chan struct{})}
	defer close(fake.release)
	x, _, drops := newTestExporter(t, DefaultConfig(), fake)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := x.Export(context.Background(), evaluation()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := x.Shutdown(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v, want context.Canceled", err)
	}
	if got := dropped(drops, dropShutdownTimeout); got != 2 {
		t.Errorf("shutdown_timeout drops = %v, want 2", got)
	}
	if err := x.Export(context.Background(), evaluation()); !errors.Is(err, ErrClosed) {
		t.Errorf("Export after Shutdown = %v, want ErrClosed", err)
	}
	if got := dropped(drops, dropShuttingDown); got != 2 {
		t.Errorf("shutting_down drops = %v, want 2", got)
	}
	if err := x.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown = %v", err)
	}
}

func TestLifecycle(t *testing.T) {
	fake := &fakeExporter{}
	x, _, drops := newTestExporter(t, DefaultConfig(), fake)
	if err := x.Export(context.Background(), evaluation()); !errors.Is(err, ErrNotStarted) {
		t.Errorf("Export before Start = %v, want ErrNotStarted", err)
	}
	if got := dropped(drops, dropNotStarted); got != 2 {
		t.Errorf("not_started drops = %v, want 2", got)
	}
	if err := x.Export(context.Background(), nil); err != nil {
		t.Errorf("Export(nil) = %v", err)
	}
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := x.Start(context.Background()); err == nil {
		t.Error("second Start succeeded")
	}
	noJudge := evaluation()
	noJudge.Results = noJudge.Results[1:]
	noJudge.Errors = noJudge.Errors[1:]
	if err := x.Export(context.Background(), noJudge); err != nil {
		t.Errorf("Export of deterministic results only = %v", err)
	}
	shutdown(t, x)
	if fake.count() != 0 {
		t.Errorf("deterministic results exported: %d records", fake.count())
	}
	if err := x.Start(context.Background()); err == nil {
		t.Error("Start after Shutdown succeeded")
	}
	y, _, _ := newTestExporter(t, DefaultConfig(), fake)
	if err := y.Shutdown(context.Background()); err != nil {
		t.Errorf("Shutdown before Start = %v", err)
	}
}

func TestStartClientError(t *testing.T) {
	x, _, _ := newTestExporter(t, DefaultConfig(), nil)
	x.newExporter = func(context.Context, Config) (sdklog.Exporter, error) { return nil, errBoom }
	if err := x.Start(context.Background()); !errors.Is(err, errBoom) {
		t.Errorf("Start = %v, want the client error", err)
	}
}

func TestMetricsRegistered(t *testing.T) {
	x, reg, _ := newTestExporter(t, DefaultConfig(), &fakeExporter{})
	x.m.exported.Add(0) // a vector child appears once used
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, mf := range mfs {
		names[mf.GetName()] = true
	}
	for _, n := range []string{MetricRecords, MetricQueueLength} {
		if !names[n] {
			t.Errorf("%s not registered (have %v)", n, names)
		}
	}
	if _, err := New(DefaultConfig(), telemetry.Settings{Registerer: reg}); err == nil {
		t.Error("second registration with the same registry succeeded")
	}
	bad := DefaultConfig()
	bad.Protocol = "udp"
	if _, err := New(bad, telemetry.Settings{}); err == nil {
		t.Error("New accepted an invalid config")
	}
}

// TestAccountingUnderConcurrency checks that every event is either
// exported or dropped with a reason while exporters race with Shutdown.
func TestAccountingUnderConcurrency(t *testing.T) {
	fake := &fakeExporter{}
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize, cfg.SendingQueue.Batch.MaxSize = 64, 16
	x, _, drops := newTestExporter(t, cfg, fake)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 200
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				_ = x.Export(context.Background(), evaluation())
			}
		})
	}
	shutdownErr := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		shutdownErr <- x.Shutdown(ctx)
	}()
	wg.Wait()
	if err := <-shutdownErr; err != nil {
		t.Fatal(err)
	}
	exported, failed, droppedN := outcomes(t, x)
	if total := exported + failed + droppedN; total != workers*each*2 {
		t.Errorf("exported %v + failed %v + dropped %v = %v, want %d", exported, failed, droppedN, total, workers*each*2)
	}
	if got := totalDrops(drops); got != droppedN {
		t.Errorf("evalsidecar_dropped_total = %v, want %v", got, droppedN)
	}
	if float64(fake.count()) != exported {
		t.Errorf("exporter got %d records, counted %v", fake.count(), exported)
	}
	if x.inflight.Load() != 0 {
		t.Errorf("%d records still in flight after Shutdown", x.inflight.Load())
	}
}

// TestDrainingScorerWaitsForRoom exports, with a context marked by
// queue.WithWait as a draining scorer passes, into a full queue: Export
// waits until the consumers make room, and nothing is dropped; a wait
// that outlasts the context drops and counts what did not fit.
func TestDrainingScorerWaitsForRoom(t *testing.T) {
	fake := &fakeExporter{release: make(chan struct{})}
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize, cfg.SendingQueue.Batch.MaxSize = 1, 1
	x, _, drops := newTestExporter(t, cfg, fake)
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(queue.WithWait(context.Background()), 50*time.Millisecond)
	defer cancel()
	if err := x.Export(short, evaluation()); !errors.Is(err, ErrQueueFull) { // two events, room for one, nothing sent yet
		t.Fatalf("Export past its deadline = %v, want ErrQueueFull", err)
	}
	if got := dropped(drops, dropQueueFull); got != 1 {
		t.Fatalf("queue_full drops = %v, want 1", got)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		close(fake.release)
	}()
	ctx, cancel2 := context.WithTimeout(queue.WithWait(context.Background()), 10*time.Second)
	defer cancel2()
	if err := x.Export(ctx, evaluation()); err != nil {
		t.Fatalf("waiting Export = %v", err)
	}
	shutdown(t, x)
	if got := dropped(drops, dropQueueFull); got != 1 {
		t.Errorf("queue_full drops = %v, want still 1", got)
	}
	if fake.count() != 3 {
		t.Errorf("exporter got %d records, want 3 (one of the first evaluation, both of the second)", fake.count())
	}
}
