package calibration

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// BenchmarkJudgedRun is the cost a judged run adds: its score kept for
// feedback (the cache full, so each one evicts the oldest). It reports the
// heap a full cache of judge scores holds per entry.
func BenchmarkJudgedRun(b *testing.B) {
	cfg := DefaultConfig()
	c, err := New(cfg, telemetry.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	evs := make([]*scorer.Evaluation, cfg.MaxPending)
	for i := range evs {
		evs[i] = &scorer.Evaluation{Trajectory: &agentrun.Trajectory{TraceID: fmt.Sprintf("%032x", i)}, FollowUp: true,
			Results: []scorer.Result{{Metric: "coherence", Score: 4, Label: "good", Judge: &scorer.JudgeUsage{}}}}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, e := range evs {
		_ = c.Export(b.Context(), e)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perEntry := float64(after.HeapAlloc-before.HeapAlloc) / float64(cfg.MaxPending)
	for i := range evs { // new runs: each evicts the oldest
		evs[i].Trajectory = &agentrun.Trajectory{TraceID: fmt.Sprintf("%032x", cfg.MaxPending+i)}
	}
	for i := 0; b.Loop(); i++ {
		_ = c.Export(b.Context(), evs[i%len(evs)])
	}
	b.ReportMetric(perEntry, "heap-B/entry")
}
