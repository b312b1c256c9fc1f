package adk

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// Parameters common to the metrics of this package (besides "judge").
const (
	// ParamThreshold is the pass threshold: Label is "passed" when the
	// score is >= threshold, else "failed". Default 0.5.
	ParamThreshold = "threshold"
	// ParamNumSamples is the number of judge calls per invocation of the
	// sampled metrics (rubric metrics, adk_final_response_match_v2),
	// combined by majority vote. Default 5, at most 20.
	ParamNumSamples = "num_samples"
)

const (
	defaultThreshold  = 0.5
	defaultNumSamples = 5
	maxNumSamples     = 20
)

// base holds what every metric of the package is built with.
type base struct {
	judgemetric.Base
	threshold float64
}

// newBase checks the params (besides "judge", the threshold and known),
// resolves the judge and reads the threshold.
func newBase(id string, p scorer.Params, deps judgemetric.Deps, known ...string) (base, error) {
	b, err := judgemetric.NewBase(id, p, deps, append([]string{ParamThreshold}, known...)...)
	if err != nil {
		return base{}, err
	}
	th, err := p.Float(ParamThreshold, defaultThreshold, 0, 1)
	return base{Base: b, threshold: th}, err
}

// sampled reads num_samples and the temperature of the sampled calls.
func (b *base) sampled(p scorer.Params) (int, error) {
	n, err := p.PositiveInt(ParamNumSamples, defaultNumSamples, maxNumSamples)
	if err != nil {
		return 0, err
	}
	b.Temperature, err = judgemetric.SamplingTemperature(p, n)
	return n, err
}

func (b *base) label(score float64) string {
	if score >= b.threshold {
		return "passed"
	}
	return "failed"
}

// mean returns the mean of xs; xs must not be empty.
func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Register adds the package's metrics to r. Each factory resolves the
// metric's judge from its "judge" parameter (or deps' default judge) and
// rejects unknown parameters.
func Register(r *scorer.Registry, deps judgemetric.Deps) error {
	return judgemetric.RegisterAll(r, deps,
		judgemetric.Entry{ID: MetricHallucinations, New: newHallucinations, Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricRubricFinalResponse, New: newRubricMetric(MetricRubricFinalResponse, false), Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricRubricToolUse, New: newRubricMetric(MetricRubricToolUse, true), Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricFinalResponseMatchV2, New: newFinalMatch, Semantics: judgemetric.Share()},
	)
}
