package catalog

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// BenchmarkDeterministic runs the six built-in metrics on a medium run
// (performance.md B1: 4 tool calls with ~200 B arguments, ~1 KB results,
// declared tools with JSON-schema parameters).
//
// "schemas" validates every call against its declared, nested schema;
// "flat_schemas" uses the typical function-calling shape (top-level typed
// properties and required keys); "no_schemas" is the same run without tool
// declarations (JSON-object check only). Each iteration scores a new
// Instance, so that no value one evaluation derives (scorer.Derive) is
// reused by the next.
func BenchmarkDeterministic(b *testing.B) {
	ms, err := NewRegistry().Build(DefaultMetrics())
	if err != nil {
		b.Fatal(err)
	}
	tr := loadRun(b, filepath.Join("testdata", "runs", "medium.json"))
	bare := *tr
	bare.ToolDefs = nil
	flat := *tr
	flat.ToolDefs = nil
	for _, d := range tr.ToolDefs {
		d.Parameters = flatSchema
		flat.ToolDefs = append(flat.ToolDefs, d)
	}
	for _, bc := range []struct {
		name string
		tr   *agentrun.Trajectory
	}{{"schemas", tr}, {"flat_schemas", &flat}, {"no_schemas", &bare}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				in := scorer.FromTrajectory(bc.tr) // a new instance per run, as the engine builds
				for _, m := range ms {
					if _, err := m.Score(ctx, in); err != nil && !errors.Is(err, scorer.ErrNotApplicable) {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkEvaluate is BenchmarkDeterministic through the engine: instance
// building, per-metric timeout, panic guard and telemetry included.
func BenchmarkEvaluate(b *testing.B) {
	ms, err := NewRegistry().Build(DefaultMetrics())
	if err != nil {
		b.Fatal(err)
	}
	e, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, nil, scorer.EngineOptions{})
	if err != nil {
		b.Fatal(err)
	}
	tr := loadRun(b, filepath.Join("testdata", "runs", "medium.json"))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		ev := e.Evaluate(ctx, scorer.FromTrajectory(tr))
		if len(ev.Results)+len(ev.NotApplicable) != len(ms) || len(ev.Errors) > 0 {
			b.Fatalf("evaluation %+v", ev)
		}
	}
}

// flatSchema is a function-calling parameter schema of the common flat
// shape.
const flatSchema = `{"type":"object","properties":{"order_id":{"type":"string"},"customer":{"type":"object"},` +
	`"items":{"type":"array"},"note":{"type":"string"}},"required":["order_id","items"]}`
