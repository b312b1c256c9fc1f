package extractor

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// extractTrace rebuilds the agent runs of t with a fresh extraction.
func extractTrace(t *Trace) []*agentrun.Trajectory {
	var x extraction
	return x.extract(t)
}

// collectSink records submitted trajectories.
type collectSink struct {
	mu    sync.Mutex
	trajs []*agentrun.Trajectory
}

func (c *collectSink) Submit(_ context.Context, t *agentrun.Trajectory) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trajs = append(c.trajs, t)
	return nil
}

func (c *collectSink) all() []*agentrun.Trajectory {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*agentrun.Trajectory(nil), c.trajs...)
}

// testAssembler builds an assembler on a fresh registry with a fixed clock.
type testAssembler struct {
	*Assembler
	sink  *collectSink
	reg   *prometheus.Registry
	drops *telemetry.Drops
	now   time.Time
}

func newTestAssembler(t testing.TB, cfg Config) *testAssembler {
	t.Helper()
	reg := prometheus.NewRegistry()
	drops := telemetry.NewDrops(reg)
	sink := &collectSink{}
	a, err := NewAssembler(cfg, telemetry.Settings{Registerer: reg, Drops: drops}, sink)
	if err != nil {
		t.Fatal(err)
	}
	ta := &testAssembler{Assembler: a, sink: sink, reg: reg, drops: drops, now: time.Unix(1_800_000_000, 0)}
	a.clock = func() time.Time { return ta.now }
	return ta
}

func (ta *testAssembler) dropped(reason string) float64 {
	return counterValue(ta.drops.Vec().WithLabelValues(dropStage, reason))
}

func (ta *testAssembler) outcome(o string) float64 {
	return counterValue(ta.m.traces.WithLabelValues(o))
}
