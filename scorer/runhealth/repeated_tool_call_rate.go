package runhealth

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// MetricRepeatedToolCallRate is the id of the repeated tool-call metric.
const MetricRepeatedToolCallRate = "repeated_tool_call_rate"

// repeatedToolCallRate scores the share of tool calls that repeat an
// earlier call of the run: same tool name and equal arguments.
//
// Formula: repeated / calls, where call i is repeated when some call j < i
// has the same name and equal arguments. Arguments are compared as parsed
// JSON: object key order is ignored and numbers compare by value (1 equals
// 1.0); arguments that are not valid JSON compare as raw text. The first
// occurrence of a call is never counted, so three identical calls give
// 2/3. Edge case: zero calls is not applicable (ErrNotApplicable).
// Details: "calls", "repeated".
type repeatedToolCallRate struct{}

// Name returns "repeated_tool_call_rate".
func (repeatedToolCallRate) Name() string { return MetricRepeatedToolCallRate }

// Needs requires the predicted trajectory.
func (repeatedToolCallRate) Needs() scorer.Inputs { return scorer.InPredictedTrajectory }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (repeatedToolCallRate) Inline() {}

// Score returns repeated / calls.
func (repeatedToolCallRate) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	calls := in.PredictedTrajectory
	if len(calls) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	rep := toolmatch.Repeated(toolmatch.Calls(calls), toolmatch.SharedDecoder(in))
	return scorer.Result{
		Metric:  MetricRepeatedToolCallRate,
		Score:   float64(rep) / float64(len(calls)),
		Details: map[string]any{"calls": len(calls), "repeated": rep},
	}, nil
}
