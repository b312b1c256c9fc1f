// Package promtest reads the values a Prometheus registry exposes, for
// tests that hold the registry but not its collectors (those that hold a
// collector read it with prometheus/testutil.ToFloat64).
package promtest

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// Sum returns the sum of the series of counter or gauge name in g whose
// labels include every label of match (nil matches every series), as
// PromQL's sum(name{match}) does. It fails t when g fails, exposes no
// metric name, or name is neither a counter nor a gauge.
func Sum(t testing.TB, g prometheus.Gatherer, name string, match prometheus.Labels) float64 {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		if typ := mf.GetType(); typ != dto.MetricType_COUNTER && typ != dto.MetricType_GAUGE {
			t.Fatalf("%s is a %s, not a counter or gauge", name, typ)
		}
		sum := 0.0
	series:
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range match {
				if have[k] != v {
					continue series
				}
			}
			sum += m.GetCounter().GetValue() + m.GetGauge().GetValue()
		}
		return sum
	}
	t.Fatalf("no metric %s gathered", name)
	return 0
}
