package prometheus

import (
	"context"
	"testing"
)

// BenchmarkPrometheusExport measures Export of one medium evaluation (4 tool
// calls, 3 LLM calls, 6 scores) once its series exist: the hot path.
func BenchmarkPrometheusExport(b *testing.B) {
	x, reg := newTestExporter(b, DefaultConfig())
	ev := &loadEvaluations(b)[0]
	if len(ev.Trajectory.ToolCalls) != 4 || len(ev.Trajectory.LLMCalls) != 3 || len(ev.Results) != 6 {
		b.Fatal("fixture is not the medium evaluation")
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := x.Export(ctx, ev); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var n uint64
	for _, m := range series(b, reg)[MetricEvalScoreOther] {
		n += m.GetHistogram().GetSampleCount()
	}
	if n != uint64(6*b.N) {
		b.Fatalf("observed %d scores, want %d", n, 6*b.N)
	}
}
