package judgemetric

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// ParamTemperature is the sampling temperature of a metric that asks the
// judge num_samples times and votes.
const ParamTemperature = "temperature"

// DefaultSamplingTemperature is the temperature of sampled calls when
// num_samples > 1 and the metric sets none: votes drawn at temperature 0
// are the same answer repeated, so they would cost num_samples times as
// much and their agreement would always be 1.
const DefaultSamplingTemperature = 1.0

// SamplingTemperature reads the temperature of a metric that calls the
// judge samples times per item. With samples > 1 it is the "temperature"
// param, DefaultSamplingTemperature when unset, and must be > 0 (a
// configuration error otherwise). With one sample it is the param when
// set, else nil: the judge's own temperature.
func SamplingTemperature(p scorer.Params, samples int) (*float64, error) {
	if samples <= 1 {
		if v, ok := p[ParamTemperature]; !ok || v == nil {
			return nil, nil
		}
		t, err := p.Float(ParamTemperature, 0, 0, 2)
		return &t, err
	}
	t, err := p.Float(ParamTemperature, DefaultSamplingTemperature, 0, 2)
	if err != nil {
		return nil, err
	}
	if t == 0 {
		return nil, fmt.Errorf("param %q: num_samples %d needs a temperature > 0: at temperature 0 the samples are the same answer, cost %d times as much and always agree", ParamTemperature, samples, samples)
	}
	return &t, nil
}
