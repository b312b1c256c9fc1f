package scorer

import (
	"context"
	"fmt"
	"testing"

	"github.com/evalsidecar/evalsidecar/extractor"
)

// BenchmarkTrajectoryMetrics scores each tool-call and trajectory metric
// on a 10-call run against a 10-call reference.
func BenchmarkTrajectoryMetrics(b *testing.B) {
	var pred []extractor.ToolCall
	for i := 0; i < 10; i++ {
		pred = append(pred, extractor.ToolCall{
			Name:      fmt.Sprintf("tool_%d", i%4),
			Arguments: fmt.Sprintf(`{"query": "weather in city %d", "limit": %d, "units": "metric", "filters": {"days": 3, "hourly": true}}`, i, i+1),
		})
	}
	ref := append([]extractor.ToolCall(nil), pred...)
	ref[3].Arguments = `{"query": "weather in city 3", "limit": 4.0, "units": "imperial"}`
	ref[5], ref[6] = ref[6], ref[5]
	enc := func(cs []extractor.ToolCall) string {
		s := `{"content": "", "tool_calls": [`
		for i, c := range cs {
			if i > 0 {
				s += ", "
			}
			s += fmt.Sprintf(`{"name": %q, "arguments": %s}`, c.Name, c.Arguments)
		}
		return s + "]}"
	}
	in := &Instance{
		PredictedTrajectory: pred, ReferenceTrajectory: ref,
		Prediction: enc(pred), Reference: enc(ref),
		Has: InPredictedTrajectory | InReferenceTrajectory | InPrediction | InReference,
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
				if _, err := m.Score(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
