package adk

import (
	"strconv"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
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
	paramJudge      = "judge"
)

const (
	defaultThreshold  = 0.5
	defaultNumSamples = 5
	maxNumSamples     = 20
)

// base holds what every metric of the package is built with.
type base struct {
	id        string
	judge     judge.Judge
	newSan    func() judge.Sanitizer
	threshold float64
	// temperature is the sampled metrics' temperature (see
	// judgemetric.SamplingTemperature); nil: the judge's.
	temperature *float64
}

// newBase resolves the judge and reads the threshold.
func newBase(id string, p scorer.Params, deps judgemetric.Deps) (base, error) {
	j, ns, err := deps.Resolve(id, p)
	if err != nil {
		return base{}, err
	}
	th, err := p.Float(ParamThreshold, defaultThreshold, 0, 1)
	if err != nil {
		return base{}, err
	}
	return base{id: id, judge: j, newSan: ns, threshold: th}, nil
}

// Name returns the metric id.
func (b *base) Name() string { return b.id }

// JudgeName returns the configured judge the metric calls.
func (b *base) JudgeName() string { return b.judge.Name() }

func (b *base) caller() *judgemetric.Caller {
	c := judgemetric.NewCaller(b.judge, b.newSan, b.id)
	c.Temperature = b.temperature
	return c
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

func itoa(i int) string { return strconv.Itoa(i) }
