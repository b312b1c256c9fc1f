package runhealth

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricToolCallCount is the id of the tool-call count metric.
const MetricToolCallCount = "tool_call_count"

// toolCallCount scores the number of tool calls of the run.
//
// Formula: len(PredictedTrajectory). Edge case: a run without tool calls
// scores 0 (an empty trajectory is an observation, not a missing input).
type toolCallCount struct{}

// Name returns "tool_call_count".
func (toolCallCount) Name() string { return MetricToolCallCount }

// Needs requires the predicted trajectory.
func (toolCallCount) Needs() scorer.Inputs { return scorer.InPredictedTrajectory }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (toolCallCount) Inline() {}

// Score returns the number of calls.
func (toolCallCount) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	return scorer.Result{Metric: MetricToolCallCount, Score: float64(len(in.PredictedTrajectory))}, nil
}
