package otelevents

import (
	"context"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// BenchmarkExport measures what Export costs the scorer per evaluation
// (two events), with a queue large enough that nothing is dropped.
func BenchmarkExport(b *testing.B) {
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize, cfg.SendingQueue.Batch.MaxSize = 1<<16, 512
	x, err := New(cfg, telemetry.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	x.newExporter = fakeFactory(&fakeExporter{})
	if err := x.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	defer func() { _ = x.Shutdown(context.Background()) }()
	e := evaluation()
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Export(context.Background(), e); err != nil {
			b.Fatal(err)
		}
	}
}
