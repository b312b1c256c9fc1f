package toolmatch

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

// BenchmarkTrajectoryMetrics scores each tool-call and trajectory metric
// on a 10-call run against a 10-call reference, each metric on its own
// and on a new Instance per iteration (Vertex's tool-call metrics read the
// same calls written as tool-call JSON).
func BenchmarkTrajectoryMetrics(b *testing.B) {
	pred, ref := scorertest.Trajectories()
	enc := scorertest.ToolCallOutput
	predText, refText := enc(pred), enc(ref)
	newIn := func() *scorer.Instance {
		return &scorer.Instance{
			PredictedTrajectory: pred, ReferenceTrajectory: ref,
			Prediction: predText, Reference: refText,
			Has: scorer.InPredictedTrajectory | scorer.InReferenceTrajectory | scorer.InPrediction | scorer.InReference,
		}
	}
	for _, e := range Metrics() {
		var params map[string]any
		if e.Name == MetricTrajectorySingleToolUse {
			params = map[string]any{ParamToolName: "tool_3"}
		}
		m, err := e.New(params)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name, func(b *testing.B) { scorertest.Bench(b, m, newIn) })
	}
}
