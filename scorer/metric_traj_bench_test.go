package scorer

import (
	"testing"
)

// BenchmarkTrajectoryMetrics scores each tool-call and trajectory metric
// on a 10-call run against a 10-call reference, each metric on its own
// and on a new Instance per iteration (Vertex's tool-call metrics read the
// same calls written as tool-call JSON).
func BenchmarkTrajectoryMetrics(b *testing.B) {
	pred, ref := benchTrajectories()
	enc := benchToolCallOutput
	predText, refText := enc(pred), enc(ref)
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
		b.Run(bt.name, func(b *testing.B) { benchMetric(b, m, newIn) })
	}
}
