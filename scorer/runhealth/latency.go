package runhealth

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricLatency is the id of the run-latency metric.
const MetricLatency = "latency"

// latency scores the run's wall-clock duration in seconds, like the
// latency_in_seconds column of a Vertex AI agent evaluation.
//
// Formula: (end - start) in seconds, from Instance.Latency. Edge cases: a
// run without start or end time lacks InLatency and is not applicable; an
// end before the start gives 0 (Trajectory.Latency clamps it).
type latency struct{}

// Name returns "latency".
func (latency) Name() string { return MetricLatency }

// Needs requires the latency.
func (latency) Needs() scorer.Inputs { return scorer.InLatency }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (latency) Inline() {}

// Score returns the latency in seconds.
func (latency) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	s := in.Latency.Seconds()
	if s < 0 {
		s = 0
	}
	return scorer.Result{Metric: MetricLatency, Score: s}, nil
}
