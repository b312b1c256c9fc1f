package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// describer records the metrics the pipeline describes to it.
type describer struct {
	ms []scorer.Metric
}

func (d *describer) Export(context.Context, *scorer.Evaluation) error { return nil }
func (d *describer) Start(context.Context) error                      { return nil }
func (d *describer) Shutdown(context.Context) error                   { return nil }
func (d *describer) DescribeMetrics(ms []scorer.Metric)               { d.ms = ms }

// TestExportersAreToldTheMetrics checks that every exporter that asks is
// given the configured metrics with their semantics, overrides applied.
func TestExportersAreToldTheMetrics(t *testing.T) {
	cfg := config.Default()
	cfg.Scorer.Metrics = append(cfg.Scorer.Metrics, scorer.MetricConfig{Name: "slow", Type: "latency",
		SemanticsConfig: scorer.SemanticsConfig{Pass: &scorer.PassRule{Threshold: 30, Op: "<="}}})
	d := &describer{}
	if _, err := New(cfg, telemetry.Settings{}, Options{Extra: []exporter.Exporter{d}}); err != nil {
		t.Fatal(err)
	}
	if len(d.ms) != len(cfg.Scorer.Metrics) {
		t.Fatalf("described %d metrics, want %d", len(d.ms), len(cfg.Scorer.Metrics))
	}
	for i, m := range d.ms {
		if m.Name() != cfg.Scorer.Metrics[i].Name {
			t.Errorf("metric %d is %s, want %s", i, m.Name(), cfg.Scorer.Metrics[i].Name)
		}
	}
	if p := scorer.SemanticsOf(d.ms[len(d.ms)-1]).Pass; p == nil || *p != (scorer.PassRule{Threshold: 30, Op: "<="}) {
		t.Errorf("slow's pass rule = %+v, want <= 30", p)
	}
	if s := scorer.SemanticsOf(d.ms[1]); d.ms[1].Name() != "failure" || s.Direction != scorer.LowerIsBetter {
		t.Errorf("%s: %+v", d.ms[1].Name(), s)
	}
}

// TestSessionMetricsAreDescribed checks that with sessions enabled the
// exporters are also told the session metrics, after the configured ones.
func TestSessionMetricsAreDescribed(t *testing.T) {
	cfg := config.Default()
	cfg.Sessions.Enabled = true
	d := &describer{}
	if _, err := New(cfg, telemetry.Settings{}, Options{Extra: []exporter.Exporter{d}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"session_turns", "session_failed", "session_tool_error_rate", "session_duration_seconds"}
	if len(d.ms) != len(cfg.Scorer.Metrics)+len(want) {
		t.Fatalf("described %d metrics, want %d", len(d.ms), len(cfg.Scorer.Metrics)+len(want))
	}
	for i, name := range want {
		m := d.ms[len(cfg.Scorer.Metrics)+i]
		if m.Name() != name {
			t.Errorf("session metric %d is %s, want %s", i, m.Name(), name)
		}
	}
	if s := scorer.SemanticsOf(d.ms[len(d.ms)-1]); s.Unit != scorer.UnitSeconds {
		t.Errorf("session_duration_seconds unit %s, want seconds", s.Unit)
	}
}

// TestSessionCaseMetricsAreDescribed checks that with a reference file
// the canary sessions' case metrics are described too, and that a case
// metric also configured as a run metric is described once, with its
// configured semantics.
func TestSessionCaseMetricsAreDescribed(t *testing.T) {
	refs := filepath.Join(t.TempDir(), "canary.jsonl")
	if err := os.WriteFile(refs, []byte(`{"case_id": "c1", "prompt": "p", "reference": "Paris"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Sessions.Enabled = true
	cfg.Scorer.References.Files = []string{refs}
	cfg.Scorer.Metrics = []scorer.MetricConfig{{Name: "response_match_score",
		SemanticsConfig: scorer.SemanticsConfig{Pass: &scorer.PassRule{Threshold: 0.9, Op: ">="}}}}
	d := &describer{}
	if _, err := New(cfg, telemetry.Settings{}, Options{Extra: []exporter.Exporter{d}}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range d.ms {
		names = append(names, m.Name())
	}
	want := []string{"response_match_score", "session_turns", "session_failed", "session_tool_error_rate", "session_duration_seconds", "tool_trajectory_avg_score"}
	if !slices.Equal(names, want) {
		t.Fatalf("described %v, want %v", names, want)
	}
	if p := scorer.SemanticsOf(d.ms[0]).Pass; p == nil || p.Threshold != 0.9 {
		t.Errorf("response_match_score pass rule %+v, want the configured >= 0.9", p)
	}
}
