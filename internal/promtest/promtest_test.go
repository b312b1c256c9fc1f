package promtest

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// fatalT records a Fatalf instead of ending the test.
type fatalT struct {
	testing.TB
	failed bool
}

func (f *fatalT) Fatalf(string, ...any) { f.failed = true }

func TestSum(t *testing.T) {
	reg := prometheus.NewRegistry()
	tokens := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "tokens_total", Help: "h"}, []string{"judge", "type"})
	open := prometheus.NewGauge(prometheus.GaugeOpts{Name: "open", Help: "h"})
	hist := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "latency_seconds", Help: "h"})
	reg.MustRegister(tokens, open, hist)
	tokens.WithLabelValues("a", "input").Add(3)
	tokens.WithLabelValues("a", "output").Add(5)
	tokens.WithLabelValues("b", "input").Add(7)
	open.Set(2)
	hist.Observe(1)

	tests := []struct {
		name  string
		match prometheus.Labels
		want  float64
	}{
		{"tokens_total", nil, 15},
		{"tokens_total", prometheus.Labels{"type": "input"}, 10},
		{"tokens_total", prometheus.Labels{"judge": "a", "type": "output"}, 5},
		{"tokens_total", prometheus.Labels{"judge": "c"}, 0},
		{"tokens_total", prometheus.Labels{"model": ""}, 15}, // an absent label is empty, as in PromQL
		{"open", nil, 2},
	}
	for _, tt := range tests {
		if got := Sum(t, reg, tt.name, tt.match); got != tt.want {
			t.Errorf("Sum(%s%v) = %v, want %v", tt.name, tt.match, got, tt.want)
		}
	}
	for _, name := range []string{"missing_total", "latency_seconds"} {
		f := &fatalT{TB: t}
		Sum(f, reg, name, nil)
		if !f.failed {
			t.Errorf("Sum(%s) did not fail", name)
		}
	}
}
