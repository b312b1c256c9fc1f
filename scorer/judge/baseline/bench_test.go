package baseline

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// BenchmarkEnrich is the store's cost on the engine's path per run: a
// run without a case id, a baseline-release run recorded (1000 cases,
// 10000-run store), and a candidate's memory lookup.
func BenchmarkEnrich(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Version = "1.0"
	s, err := New(cfg, caseAttr, nil, telemetry.Settings{})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	t0 := time.Now()
	plain := run("p", "1.0", "", "Hi?", "a", t0)
	baselines := make([]*scorer.Instance, 1000)
	for i := range baselines {
		baselines[i] = run(fmt.Sprint("b", i), "1.0", fmt.Sprint("c", i), "Hi?", "a", t0.Add(time.Duration(i)))
	}
	candidate := run("k", "2.0", "c7", "Hi?", "b", t0)
	b.Run("no case id", func(b *testing.B) {
		for b.Loop() {
			s.Enrich(ctx, plain)
		}
	})
	b.Run("baseline run", func(b *testing.B) {
		i := 0
		for b.Loop() {
			s.Enrich(ctx, baselines[i%len(baselines)])
			i++
		}
	})
	b.Run("candidate lookup", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Find(ctx, candidate); err != nil {
				b.Fatal(err)
			}
		}
	})
}
