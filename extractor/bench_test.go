package extractor

import (
	"context"
	"runtime"
	"testing"

	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/internal/testpayload"
)

// decodedMedium returns the medium payload as the receiver would hand it
// over: decoded from protobuf, so every string is its own allocation.
func decodedMedium(tb testing.TB, traces int) (ptrace.Traces, int) {
	tb.Helper()
	wire, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(testpayload.Medium(traces))
	if err != nil {
		tb.Fatal(err)
	}
	td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(wire)
	if err != nil {
		tb.Fatal(err)
	}
	return td, len(wire)
}

func discard() Sink {
	return SinkFunc(func(context.Context, *agentrun.Trajectory) error { return nil })
}

// BenchmarkAssembleExtract buffers one 50-trace medium request, then
// releases and extracts every trace.
func BenchmarkAssembleExtract(b *testing.B) {
	td, wire := decodedMedium(b, 50)
	spans := td.SpanCount()
	a, err := NewAssembler(DefaultConfig(), telemetry.Settings{}, discard())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(wire))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := a.ConsumeTraces(ctx, td); err != nil {
			b.Fatal(err)
		}
		if err := a.Flush(ctx); err != nil {
			b.Fatal(err)
		}
		a.recent = newRecentSet(a.cfg.MaxLiveTraces, a.cfg.MaxTraceAge)
	}
	b.ReportMetric(float64(spans)*float64(b.N)/b.Elapsed().Seconds(), "spans/s")
}

// BenchmarkExtractMedium measures the decoding step alone on one medium
// trace (performance.md B1).
func BenchmarkExtractMedium(b *testing.B) {
	td, _ := decodedMedium(b, 1)
	bt := converter{maxValue: DefaultConfig().MaxAttributeValueBytes}.traces(td)
	g := bt.groups[0]
	tr := &Trace{id: g.id, spans: g.spans}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if len(extractTrace(tr)) != 1 {
			b.Fatal("no trajectory")
		}
	}
}

// TestLiveHeapPerTrace measures the live heap the assembler holds per
// in-flight medium trace against the trace's protobuf wire size. The budget
// is 1.5x the wire size.
func TestLiveHeapPerTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates ~100 MB")
	}
	const requests, perRequest = 40, 50
	cfg := DefaultConfig()
	cfg.MaxLiveTraces = requests * perRequest
	cfg.MaxBufferedBytes = 1 << 30
	a, err := NewAssembler(cfg, telemetry.Settings{}, discard())
	if err != nil {
		t.Fatal(err)
	}
	var wireTotal int
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	for r := range requests {
		td := testpayload.MediumRange(r*perRequest, perRequest)
		wire, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
		if err != nil {
			t.Fatal(err)
		}
		wireTotal += len(wire)
		dec, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(wire)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.ConsumeTraces(context.Background(), dec); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	live := a.LiveTraces()
	if live != requests*perRequest {
		t.Fatalf("%d live traces, want %d", live, requests*perRequest)
	}
	heap := float64(after.HeapAlloc-before.HeapAlloc) / float64(live)
	wire := float64(wireTotal) / float64(live)
	ratio := heap / wire
	t.Logf("live heap per trace %.0f B, wire %.0f B per trace, ratio %.2fx; estimate %d B per trace",
		heap, wire, ratio, a.BufferedBytes()/int64(live))
	if ratio > 1.5 {
		t.Errorf("live heap per trace is %.2fx its wire size, budget 1.5x", ratio)
	}
	runtime.KeepAlive(a)
}
