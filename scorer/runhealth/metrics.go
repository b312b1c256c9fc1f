package runhealth

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// Ids of the run-health metrics.
const (
	MetricLatency              = "latency"
	MetricFailure              = "failure"
	MetricToolCallCount        = "tool_call_count"
	MetricToolErrorRate        = "tool_error_rate"
	MetricRepeatedToolCallRate = "repeated_tool_call_rate"
)

// Metrics lists the run-health metrics, in the order they run by default
// on every run.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricLatency, New: scorer.NoParams(scorer.Func(MetricLatency, scorer.InLatency, latency)),
			Semantics: scorer.Seconds("run duration in seconds")},
		{Name: MetricFailure, New: scorer.NoParams(scorer.Func(MetricFailure, scorer.InFailure, failure)),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "1 when the run failed, else 0").WithPass("<=", 0)},
		{Name: MetricToolCallCount, New: scorer.NoParams(scorer.Func(MetricToolCallCount, scorer.InPredictedTrajectory, toolCallCount)),
			Semantics: scorer.Count(scorer.DirectionNone, "number of tool calls")},
		{Name: MetricToolErrorRate, New: scorer.NoParams(scorer.Func(MetricToolErrorRate, scorer.InPredictedTrajectory, toolErrorRate)),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "share of tool calls that errored").WithPass("<=", 0)},
		{Name: MetricRepeatedToolCallRate, New: scorer.NoParams(scorer.Func(MetricRepeatedToolCallRate, scorer.InPredictedTrajectory, repeatedToolCallRate)),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "share of tool calls repeating an earlier call")},
		{Name: MetricToolArgsValid, New: newToolArgsValid,
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "share of tool calls with valid arguments").WithPass(">=", 1)},
	}
}

// latency scores the run's wall-clock duration in seconds, like the
// latency_in_seconds column of a Vertex AI agent evaluation: (end -
// start) from Instance.Latency. A run without start or end time lacks
// InLatency and is not applicable; an end before the start gives 0.
func latency(in *scorer.Instance) (scorer.Result, error) {
	return scorer.Result{Score: max(in.Latency.Seconds(), 0)}, nil
}

// failure scores 1 when the run failed (it errored or produced no final
// output), else 0, like the "failure" column of a Vertex AI agent
// evaluation. The trajectory's error type, when recorded, is the label.
func failure(in *scorer.Instance) (scorer.Result, error) {
	var r scorer.Result
	if in.Failure {
		r.Score = 1
		if in.Trajectory != nil {
			r.Label = in.Trajectory.ErrorType
		}
	}
	return r, nil
}

// toolCallCount scores len(PredictedTrajectory); a run without tool
// calls scores 0 (an empty trajectory is an observation).
func toolCallCount(in *scorer.Instance) (scorer.Result, error) {
	return scorer.Result{Score: float64(len(in.PredictedTrajectory))}, nil
}

// toolErrorRate scores errored calls / calls, a call having errored when
// its Error is non-empty. Zero calls is not applicable, never 0.
// Details: "calls", "errors".
func toolErrorRate(in *scorer.Instance) (scorer.Result, error) {
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
		Score:   float64(errs) / float64(len(calls)),
		Details: map[string]any{"calls": len(calls), "errors": errs},
	}, nil
}

// repeatedToolCallRate scores repeated / calls, where call i is repeated
// when some call j < i has the same name and equal arguments (as parsed
// JSON: key order ignored, 1 equals 1.0; invalid JSON as raw text). The
// first occurrence is never counted, so three identical calls give 2/3.
// Zero calls is not applicable. Details: "calls", "repeated".
func repeatedToolCallRate(in *scorer.Instance) (scorer.Result, error) {
	calls := in.PredictedTrajectory
	if len(calls) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	rep := toolmatch.Repeated(calls, toolmatch.SharedDecoder(in))
	return scorer.Result{
		Score:   float64(rep) / float64(len(calls)),
		Details: map[string]any{"calls": len(calls), "repeated": rep},
	}, nil
}
