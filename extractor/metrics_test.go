package extractor

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func counterValue(c prometheus.Collector) float64 { return testutil.ToFloat64(c) }

func TestMetricsLint(t *testing.T) {
	ta := newTestAssembler(t, DefaultConfig())
	problems, err := testutil.GatherAndLint(ta.reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
	names := map[string]bool{}
	mfs, err := ta.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		names[mf.GetName()] = true
	}
	for _, n := range []string{"evalsidecar_assembler_live_traces", "evalsidecar_assembler_traces_total", "evalsidecar_late_spans_total"} {
		if !names[n] {
			t.Errorf("metric %s not registered", n)
		}
	}
}

func TestNilRegisterer(t *testing.T) {
	if _, err := NewAssembler(DefaultConfig(), telemetry.Settings{}, SinkFunc(nil)); err != nil {
		t.Fatal(err)
	}
}
