package runhealth

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricFailure is the id of the run-failure metric.
const MetricFailure = "failure"

// failure scores whether the run failed, like the "failure" column of a
// Vertex AI agent evaluation.
//
// Formula: 1 when Instance.Failure is set (the run errored or produced no
// final output), else 0. Edge case: an instance that does not record
// failure (no InFailure) is not applicable. When the trajectory records an
// error type it becomes the result's label.
type failure struct{}

// Name returns "failure".
func (failure) Name() string { return MetricFailure }

// Needs requires the failure flag.
func (failure) Needs() scorer.Inputs { return scorer.InFailure }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (failure) Inline() {}

// Score returns 1 for a failed run and 0 otherwise.
func (failure) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	r := scorer.Result{Metric: MetricFailure}
	if in.Failure {
		r.Score = 1
		if in.Trajectory != nil {
			r.Label = in.Trajectory.ErrorType
		}
	}
	return r, nil
}
