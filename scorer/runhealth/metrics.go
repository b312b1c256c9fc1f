package runhealth

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the run-health metrics, in the order they run by default
// on every run.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricLatency, New: scorer.NoParams(latency{})},
		{Name: MetricFailure, New: scorer.NoParams(failure{})},
		{Name: MetricToolCallCount, New: scorer.NoParams(toolCallCount{})},
		{Name: MetricToolErrorRate, New: scorer.NoParams(toolErrorRate{})},
		{Name: MetricRepeatedToolCallRate, New: scorer.NoParams(repeatedToolCallRate{})},
		{Name: MetricToolArgsValid, New: newToolArgsValid},
	}
}
