package scorer

import (
	"testing"
)

// BenchmarkTrajectoryMetrics scores each tool-call and trajectory metric
// on a 10-call run against a 10-call reference, each metric on its own:
// "unprepared" on a new Instance with nothing derived (a dataset row),
// "canary" with the reference trajectory prepared once for the case (a
// canary run; Vertex's tool-call metrics read tool-call JSON, which is
// not prepared).
func BenchmarkTrajectoryMetrics(b *testing.B) {
	pred, ref := benchTrajectories()
	enc := benchToolCallOutput
	predText, refText := enc(pred), enc(ref)
	// Each iteration scores a new Instance, so work an Instance shares
	// between its metrics is counted in full for every metric.
	newIn := func(p *PreparedReference) func() *Instance {
		return func() *Instance {
			return &Instance{
				PredictedTrajectory: pred, ReferenceTrajectory: ref,
				Prediction: predText, Reference: refText,
				Has:               InPredictedTrajectory | InReferenceTrajectory | InPrediction | InReference,
				PreparedReference: p,
			}
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
		b.Run(bt.name+"/unprepared", func(b *testing.B) { benchMetric(b, m, newIn(nil)) })
		b.Run(bt.name+"/canary", func(b *testing.B) {
			p := NewPreparedReference(refText, ref)
			scoreAll([]Metric{m}, newIn(p)()) // the case's first run prepares it
			benchMetric(b, m, newIn(p))
		})
	}
}
