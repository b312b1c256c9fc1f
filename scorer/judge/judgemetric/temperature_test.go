package judgemetric_test

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

func TestSamplingTemperature(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	tests := []struct {
		name    string
		params  scorer.Params
		samples int
		want    *float64
		err     string
	}{
		{name: "one sample keeps the judge's", samples: 1},
		{name: "one sample, set", params: scorer.Params{"temperature": 0.3}, samples: 1, want: f(0.3)},
		{name: "several samples default", samples: 5, want: f(judgemetric.DefaultSamplingTemperature)},
		{name: "several samples, set", params: scorer.Params{"temperature": 0.7}, samples: 3, want: f(0.7)},
		{name: "several samples at 0", params: scorer.Params{"temperature": 0}, samples: 5, err: "needs a temperature > 0"},
		{name: "out of range", params: scorer.Params{"temperature": 3}, samples: 5, err: "between 0 and 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := judgemetric.SamplingTemperature(tt.params, tt.samples)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
