package pipeline

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/internal/testpayload"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// tracesPerRequest is the batch size of the medium payload (performance.md B1).
const tracesPerRequest = 50

func mediumRequest(b *testing.B) ([]byte, int) {
	b.Helper()
	td := testpayload.Medium(tracesPerRequest)
	raw, err := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
	if err != nil {
		b.Fatal(err)
	}
	return raw, td.SpanCount()
}

// cpuClock reads the process's user+system CPU time. The benchmarks report
// spans per CPU second besides spans per wall second: on a shared machine
// wall time also counts time spent waiting for a core, CPU time does not.
func cpuClock() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportSpans(b *testing.B, spans int, cpu time.Duration) {
	b.ReportMetric(float64(spans)*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
	if cpu > 0 {
		b.ReportMetric(float64(spans)*float64(b.N)/cpu.Seconds(), "spans/cpu-s")
	}
}

// BenchmarkDecode is the baseline: protobuf decode of the medium payload
// alone. BenchmarkHotPath must reach at least half its spans/s.
func BenchmarkDecode(b *testing.B) {
	raw, spans := mediumRequest(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuClock()
	for i := 0; i < b.N; i++ {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(raw); err != nil {
			b.Fatal(err)
		}
	}
	cpu := cpuClock() - cpu0
	reportSpans(b, spans, cpu)
}

// enqueueSink stands for an asynchronous exporter's enqueue: a bounded
// channel send, drained elsewhere.
type enqueueSink struct{ ch chan *scorer.Evaluation }

func (s enqueueSink) Export(_ context.Context, e *scorer.Evaluation) error {
	select {
	case s.ch <- e:
	default:
	}
	return nil
}
func (s enqueueSink) Start(context.Context) error    { return nil }
func (s enqueueSink) Shutdown(context.Context) error { return nil }

// renumber gives every trace of td a trace id unique to iteration n, so the
// assembler sees new traces each iteration instead of late duplicates.
func renumber(td ptrace.Traces, n uint64) {
	rss := td.ResourceSpans()
	for i := 0; i < rss.Len(); i++ {
		sss := rss.At(i).ScopeSpans()
		for j := 0; j < sss.Len(); j++ {
			spans := sss.At(j).Spans()
			for k := 0; k < spans.Len(); k++ {
				s := spans.At(k)
				id := s.TraceID()
				binary.BigEndian.PutUint64(id[:8], n+1)
				s.SetTraceID(id)
			}
		}
	}
}

// BenchmarkHotPath measures the in-process hot path on the medium payload:
// protobuf bytes → decode → assemble → extract → deterministic scores →
// exporter enqueue (the Prometheus exporter's synchronous updates plus a
// queue send). Run it with -cpu 1 next to BenchmarkDecode.
//
// On a shared machine, compare instruction counts rather than wall time:
// run the test binary under valgrind --tool=callgrind with
// GODEBUG=asyncpreemptoff=1 at two -test.benchtime counts (say 5x and
// 105x) and divide the difference of the totals by the difference of the
// counts; a few dozen iterations are not enough to average out GC cycles.
func BenchmarkHotPath(b *testing.B) {
	runHotPath(b, nil)
}

// runHotPath runs the hot path of BenchmarkHotPath. When stage builds a
// judge stage on the exporters, every evaluated run is offered to it
// before export, as the engine's workers do.
func runHotPath(b *testing.B, stage func(sink scorer.Sink, reg prometheus.Registerer, logger *slog.Logger) scorer.Deferred) (runs int, decisions map[string]int) {
	raw, spans := mediumRequest(b)
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	reg := prometheus.NewRegistry()
	set := telemetry.Settings{Logger: logger, Registerer: reg, Drops: telemetry.NewDrops(reg)}

	prom, err := promexp.New(promexp.DefaultConfig(), set)
	if err != nil {
		b.Fatal(err)
	}
	queue := enqueueSink{ch: make(chan *scorer.Evaluation, 1024)}
	go func() {
		for range queue.ch {
		}
	}()
	defer close(queue.ch)
	fan := exporter.NewFanout(prom, queue)
	var deferred scorer.Deferred
	if stage != nil {
		deferred = stage(fan, reg, logger)
	}

	cfg := scorer.DefaultConfig()
	metrics, err := scorer.NewRegistry().Build(cfg.Metrics)
	if err != nil {
		b.Fatal(err)
	}
	engine, err := scorer.NewEngine(cfg, set, metrics, fan, scorer.EngineOptions{})
	if err != nil {
		b.Fatal(err)
	}
	decisions = map[string]int{}
	score := extractor.SinkFunc(func(ctx context.Context, t *agentrun.Trajectory) error {
		runs++
		in := scorer.FromTrajectory(t)
		ev := engine.Evaluate(ctx, in)
		if deferred != nil {
			deferred.Offer(ctx, in, ev)
			for _, d := range ev.Decisions {
				decisions[d.Outcome]++
			}
		}
		return fan.Export(ctx, ev)
	})
	asm, err := extractor.NewAssembler(extractor.DefaultConfig(), set, score)
	if err != nil {
		b.Fatal(err)
	}

	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuClock()
	for i := 0; i < b.N; i++ {
		req := ptraceotlp.NewExportRequest()
		if err := req.UnmarshalProto(raw); err != nil {
			b.Fatal(err)
		}
		renumber(req.Traces(), uint64(i))
		if err := asm.ConsumeTraces(ctx, req.Traces()); err != nil {
			b.Fatal(err)
		}
		asm.Cut(time.Now(), true)
	}
	b.StopTimer()
	reportSpans(b, spans, cpuClock()-cpu0)
	if want := b.N * tracesPerRequest; runs != want {
		b.Fatalf("%d trajectories scored, want %d", runs, want)
	}
	return runs, decisions
}
