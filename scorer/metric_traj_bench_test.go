package scorer

import (
	"context"
	"testing"
)

// BenchmarkTrajectoryMetrics scores each tool-call and trajectory metric
// on a 10-call run against a 10-call reference.
func BenchmarkTrajectoryMetrics(b *testing.B) {
	pred, ref := benchTrajectories()
	enc := benchToolCallOutput
	predText, refText := enc(pred), enc(ref)
	// Each iteration scores a new Instance, so work an Instance shares
	// between its metrics is counted in full for every metric.
	newIn := func() *Instance {
		return &Instance{
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Prediction: predText, Reference: refText,
			Has: InPredictedTrajectory | InReferenceTrajectory | InPrediction | InReference,
		}
	}
	for _, bt := range trajectoryMetrics() {
		var params map[string]any
		if bt.name == MetricTrajectorySingleToolUse {
			params = map[string]any{ParamToolName: "tool_3"}
		}
		m, err := bt.factory(params)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.Score(context.Background(), newIn()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
