package clickhouse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// A second exporter on a spool directory another one holds refuses to
// start, naming the directory and the fix; once the first has shut down
// the directory is free again.
func TestSpoolDirectoryIsExclusive(t *testing.T) {
	cfg := unreachableConfig(t)
	first := startExporter(t, cfg)

	x, err := New(cfg, telemetry.Settings{Registerer: prometheus.NewRegistry()})
	if err != nil {
		t.Fatal(err)
	}
	err = x.Start(context.Background())
	if !errors.Is(err, ErrSpoolInUse) {
		t.Fatalf("second exporter on %s: Start = %v, want ErrSpoolInUse", cfg.Spool.Directory, err)
	}
	for _, want := range []string{cfg.Spool.Directory, "exporters.clickhouse.spool.directory", "statefulset"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	_ = x.Shutdown(context.Background())

	shutdownSoon(first)
	again := startExporter(t, cfg)
	shutdownSoon(again)
}

// syncBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// With ClickHouse unreachable and a disk spool, Shutdown does not sit out
// its whole deadline: it returns once a sender has failed, and logs how
// many rows it left in the spool.
func TestShutdownUnreachableLeavesSpoolQuickly(t *testing.T) {
	cfg := unreachableConfig(t)
	cfg.DialTimeout = 200 * time.Millisecond
	var logs syncBuffer
	x, err := New(cfg, telemetry.Settings{
		Registerer: prometheus.NewRegistry(),
		Logger:     slog.New(slog.NewJSONHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	const runs = 7
	for i := range runs {
		if err := x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	const deadline = 20 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	if err := x.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Shutdown took %s with an unreachable server (deadline %s)", took, deadline)
	}
	want := 0
	for _, n := range rowsPerEvaluation {
		want += n * runs
	}
	var found bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct {
			Msg  string `json:"msg"`
			Rows int    `json:"rows"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && strings.Contains(rec.Msg, "rows left in the spool") {
			found = true
			if rec.Rows != want {
				t.Errorf("logged %d rows left, want %d", rec.Rows, want)
			}
		}
	}
	if !found {
		t.Errorf("no log of the rows left in the spool:\n%s", logs.String())
	}
}

// A server that accepts connections and never answers (a hung ClickHouse
// or a half-open network path): Shutdown still ends at its deadline,
// leaves the rows in the spool and logs them.
func TestShutdownHungServerEndsAtDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer func() { _ = c.Close() }() // held open, never answered
		}
	}()
	cfg := unreachableConfig(t)
	cfg.Endpoint = "clickhouse://" + ln.Addr().String()
	cfg.DialTimeout, cfg.Timeout = 10*time.Second, 30*time.Second
	var logs syncBuffer
	x, err := New(cfg, telemetry.Settings{
		Registerer: prometheus.NewRegistry(),
		Logger:     slog.New(slog.NewJSONHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := x.Export(context.Background(), testEvaluation(i)); err != nil {
			t.Fatal(err)
		}
	}
	const deadline = 500 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	_ = x.Shutdown(ctx)
	if took := time.Since(start); took > deadline+time.Second {
		t.Errorf("Shutdown took %s against a hung server, deadline %s", took, deadline)
	}
	if !strings.Contains(logs.String(), "rows left in the spool") {
		t.Errorf("no log of the rows left in the spool:\n%s", logs.String())
	}
}
