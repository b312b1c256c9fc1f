package runhealth

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricToolErrorRate is the id of the tool error-rate metric.
const MetricToolErrorRate = "tool_error_rate"

// toolErrorRate scores the share of tool calls that returned an error.
//
// Formula: errored calls / calls, where a call errored when its Error is
// non-empty. Edge case: zero calls is not applicable (ErrNotApplicable),
// never 0. Details: "calls", "errors".
type toolErrorRate struct{}

// Name returns "tool_error_rate".
func (toolErrorRate) Name() string { return MetricToolErrorRate }

// Needs requires the predicted trajectory.
func (toolErrorRate) Needs() scorer.Inputs { return scorer.InPredictedTrajectory }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (toolErrorRate) Inline() {}

// Score returns errors / calls.
func (toolErrorRate) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	calls := in.PredictedTrajectory
	if len(calls) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	errs := 0
	for i := range calls {
		if calls[i].Error != "" {
			errs++
		}
	}
	return scorer.Result{
		Metric:  MetricToolErrorRate,
		Score:   float64(errs) / float64(len(calls)),
		Details: map[string]any{"calls": len(calls), "errors": errs},
	}, nil
}
