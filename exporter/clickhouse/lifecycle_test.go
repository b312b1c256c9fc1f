package clickhouse

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/configretry"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// unreachableConfig points at a port nothing listens on.
func unreachableConfig(t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.Enabled = true
	cfg.Endpoint = "clickhouse://127.0.0.1:1"
	cfg.DialTimeout = 100 * time.Millisecond
	cfg.Spool.Directory = t.TempDir()
	cfg.Spool.Fsync = false
	cfg.FlushInterval = time.Hour
	cfg.RetryOnFailure = configretry.BackOffConfig{Enabled: true, InitialInterval: 10 * time.Millisecond, MaxInterval: 50 * time.Millisecond, Multiplier: 2}
	return cfg
}

func TestExportDropsWhenQueueFull(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.BatchRows, cfg.SendingQueue.QueueSize = 100, 100
	h := startExporter(t, cfg)
	// Without a Flush nothing is sealed below 100 rows per table; the
	// queue holds at most 100 rows over all tables.
	var accepted, refused int
	for i := range 20 {
		switch err := h.x.Export(context.Background(), testEvaluation(i)); {
		case err == nil:
			accepted++
		case errors.Is(err, ErrQueueFull):
			refused++
		default:
			t.Fatal(err)
		}
	}
	if accepted != 100/rowsPerRun() || refused != 20-accepted {
		t.Errorf("accepted %d, refused %d", accepted, refused)
	}
	if got := h.dropped(reasonQueueFull); got != refused*rowsPerRun() {
		t.Errorf("dropped{queue_full} = %d, want %d", got, refused*rowsPerRun())
	}
	shutdownSoon(h)
}

// TestExportWaitsWhileDraining exports what queue_rows cannot hold with a
// context marked by queue.WithWait, as a draining scorer does: the open
// rows are sealed and spooled to make room, and nothing is dropped.
func TestExportWaitsWhileDraining(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.BatchRows, cfg.SendingQueue.QueueSize = 100, 100
	h := startExporter(t, cfg)
	ctx, cancel := context.WithTimeout(queue.WithWait(context.Background()), 10*time.Second)
	defer cancel()
	for i := range 20 {
		if err := h.x.Export(ctx, testEvaluation(i)); err != nil {
			t.Fatalf("export %d: %v", i, err)
		}
	}
	if err := h.x.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got := h.dropped(reasonQueueFull) + h.dropped(reasonSpoolFull); got != 0 {
		t.Errorf("%d rows dropped", got)
	}
	per := 0
	for _, n := range rowsPerEvaluation {
		per += n
	}
	if _, spooled := h.x.spool.stats(); spooled != 20*per {
		t.Errorf("%d rows spooled, want %d", spooled, 20*per)
	}
	shutdownSoon(h)
}

// shutdownSoon stops an exporter whose server is unreachable without
// waiting for the spool to drain.
func shutdownSoon(h *harness) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_ = h.x.Shutdown(ctx)
}

// With a memory spool, rows still unsent when Shutdown's deadline passes
// are counted as dropped, exactly.
func TestShutdownCountsUnsentMemoryRows(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.Spool.Directory = ""
	h := startExporter(t, cfg)
	for i := range 10 {
		if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := h.x.Shutdown(ctx); err == nil {
		t.Error("shutdown with an unreachable server reported no error")
	}
	if got := h.dropped(reasonShutdown); got != 10*rowsPerRun() {
		t.Errorf("dropped{shutdown_timeout} = %d, want %d", got, 10*rowsPerRun())
	}
	if err := h.x.Export(context.Background(), testEvaluation(11)); !errors.Is(err, ErrClosed) {
		t.Errorf("export after shutdown: %v", err)
	}
	if got := h.dropped(reasonShuttingDown); got != rowsPerRun() {
		t.Errorf("dropped{shutting_down} = %d, want %d", got, rowsPerRun())
	}
}

// With a disk spool, unsent batches stay on disk at shutdown (nothing is
// counted as dropped) and a new exporter finds them.
func TestShutdownKeepsDiskSpool(t *testing.T) {
	cfg := unreachableConfig(t)
	h := startExporter(t, cfg)
	for i := range 10 {
		if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_ = h.x.Shutdown(ctx)
	if got := h.dropped(reasonShutdown); got != 0 {
		t.Errorf("dropped{shutdown_timeout} = %d with a disk spool", got)
	}
	files, _ := filepath.Glob(filepath.Join(cfg.Spool.Directory, "*"+spoolExt))
	if len(files) != int(numTables) {
		t.Fatalf("%d spool files, want one per table", len(files))
	}
	h2 := startExporter(t, cfg)
	if got := h2.x.queueRows(); got != 10*rowsPerRun() {
		t.Errorf("new exporter holds %d rows, want %d", got, 10*rowsPerRun())
	}
	shutdownSoon(h2)
}

func TestShutdownBeforeStartCountsRows(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.BatchRows, cfg.SendingQueue.QueueSize = 5, 1000
	x, err := New(cfg, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	drops := newDropsForTest()
	x.drops = drops
	for i := range 3 {
		_ = x.Export(context.Background(), testEvaluation(i))
	}
	_ = x.Shutdown(context.Background())
	if got := int(gaugeValue(drops.Vec().WithLabelValues(dropStage, "not_started"))); got != 3*rowsPerRun() {
		t.Errorf("dropped{not_started} = %d, want %d", got, 3*rowsPerRun())
	}
}

// With sending_queue.enabled false, sealing writes the batch to the spool
// in the exporting goroutine: after Flush every row is spooled.
func TestQueueDisabledSpoolsInTheCaller(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.SendingQueue.Enabled = false
	cfg.BatchRows = 5
	h := startExporter(t, cfg)
	for i := range 10 {
		if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.x.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if _, rows := h.x.spool.stats(); rows != 10*rowsPerRun() {
		t.Errorf("spool holds %d rows, want %d", rows, 10*rowsPerRun())
	}
	if got := h.x.pendingRows.Load(); got != 0 {
		t.Errorf("%d rows still pending after Flush", got)
	}
	shutdownSoon(h)
}
