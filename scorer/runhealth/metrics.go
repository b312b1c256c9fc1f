package runhealth

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the run-health metrics, in the order they run by default
// on every run.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricLatency, New: scorer.NoParams(latency{}),
			Semantics: scorer.Seconds("run duration in seconds")},
		{Name: MetricFailure, New: scorer.NoParams(failure{}),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "1 when the run failed, else 0").WithPass("<=", 0)},
		{Name: MetricToolCallCount, New: scorer.NoParams(toolCallCount{}),
			Semantics: scorer.Count(scorer.DirectionNone, "number of tool calls")},
		{Name: MetricToolErrorRate, New: scorer.NoParams(toolErrorRate{}),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "share of tool calls that errored").WithPass("<=", 0)},
		{Name: MetricRepeatedToolCallRate, New: scorer.NoParams(repeatedToolCallRate{}),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "share of tool calls repeating an earlier call")},
		{Name: MetricToolArgsValid, New: newToolArgsValid,
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "share of tool calls with valid arguments").WithPass(">=", 1)},
	}
}
