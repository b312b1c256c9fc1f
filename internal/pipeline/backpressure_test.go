package pipeline

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/simulator"
)

// TestReleasesWaitForTheScorer sends 150 runs, released together by one
// pass, to a scorer whose queue holds 2: the background release waits for
// room instead of dropping, so every run is scored and written and
// nothing is counted as dropped.
func TestReleasesWaitForTheScorer(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir)
	cfg.Scorer.SendingQueue = queue.Config{Enabled: true, NumConsumers: 1, QueueSize: 2}
	cfg.Extractor.QuietPeriod = time.Second
	p, ctx := startOnline(t, cfg, Options{})

	simCfg := simulator.DefaultConfig()
	simCfg.Protocol = simulator.ProtocolHTTP
	simCfg.Endpoint = p.Receiver.HTTPAddr()
	sim, err := simulator.New(ctx, simCfg)
	if err != nil {
		t.Fatal(err)
	}
	const runs = 150
	if err := sim.Run(ctx, runs, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := sim.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	metricsURL := "http://" + p.Metrics.Addr() + "/metrics"
	for sumCounter(scrape(t, metricsURL)["evalsidecar_trajectories_total"], nil) < runs {
		select {
		case <-ctx.Done():
			t.Fatalf("only %v of %d runs scored", sumCounter(scrape(t, metricsURL)["evalsidecar_trajectories_total"], nil), runs)
		case <-time.After(100 * time.Millisecond):
		}
	}
	if n := sumCounter(scrape(t, metricsURL)["evalsidecar_dropped_total"], nil); n != 0 {
		t.Errorf("%v items dropped", n)
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := readLines[record.TrajectoryRecord](t, filepath.Join(dir, "trajectories.jsonl")); len(got) != runs {
		t.Errorf("%d trajectories written, want %d", len(got), runs)
	}
}
