package pipeline

import (
	"bytes"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
)

// TestShutdownDrainsEverything checks the SIGTERM path: once draining, the
// receiver refuses new data with a retryable answer, and Shutdown releases
// every buffered trace (long before its quiet period would have), scores it
// and writes it out.
func TestShutdownDrainsEverything(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir)
	cfg.Extractor.QuietPeriod = time.Hour // nothing is released on its own
	cfg.Extractor.MaxTraceAge = 2 * time.Hour
	p, ctx := startOnline(t, cfg, Options{})

	simCfg := simulator.DefaultConfig()
	simCfg.Protocol = simulator.ProtocolHTTP
	simCfg.Endpoint = p.Receiver.HTTPAddr()
	sim, err := simulator.New(ctx, simCfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	if err := sim.Run(ctx, 5, 0, func(r simulator.Run) { want[r.TraceID] = true }); err != nil {
		t.Fatal(err)
	}
	if err := sim.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if n := p.Assembler.LiveTraces(); n != len(want) {
		t.Fatalf("%d traces buffered before shutdown, want %d", n, len(want))
	}

	p.Receiver.Drain()
	resp, err := http.Post("http://"+p.Receiver.HTTPAddr()+"/v1/traces", "application/x-protobuf", bytes.NewReader(nil))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("while draining: %s, Retry-After %q; want 503 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	if err := p.Readiness(); err == nil {
		t.Error("ready while draining")
	}

	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	got := readLines[record.TrajectoryRecord](t, filepath.Join(dir, "trajectories.jsonl"))
	if len(got) != len(want) {
		t.Fatalf("%d trajectories written at shutdown, want %d", len(got), len(want))
	}
	for _, tr := range got {
		if !want[tr.TraceID] {
			t.Errorf("unexpected trajectory %s", tr.TraceID)
		}
	}
	if scores := readLines[record.ScoreRecord](t, filepath.Join(dir, "scores.jsonl")); len(scores) < len(want)*3 {
		t.Errorf("%d scores written, want at least %d", len(scores), len(want)*3)
	}
}
