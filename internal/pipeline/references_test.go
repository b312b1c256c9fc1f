package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/internal/config"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/text"
)

// capture keeps every evaluation.
type capture struct {
	mu  sync.Mutex
	evs []*scorer.Evaluation
}

func (c *capture) Export(_ context.Context, ev *scorer.Evaluation) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evs = append(c.evs, ev)
	return nil
}
func (c *capture) Start(context.Context) error    { return nil }
func (c *capture) Shutdown(context.Context) error { return nil }

var _ exporter.Exporter = (*capture)(nil)

// TestReferencesOnline configures a reference file: a run naming its case
// in eval.case_id is scored by a reference metric; the store's metrics are
// on the pipeline's registry.
func TestReferencesOnline(t *testing.T) {
	dir := t.TempDir()
	refs := filepath.Join(dir, "canary.jsonl")
	if err := os.WriteFile(refs, []byte(`{"case_id": "c1", "prompt": "p", "reference": "Paris"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	config.ExporterConfig[jsonl.Config](cfg.Exporters).Enabled = false
	config.ExporterConfig[promexp.Config](cfg.Exporters).Endpoint = "127.0.0.1:0"
	cfg.Scorer.Metrics = []scorer.MetricConfig{{Name: text.MetricExactMatch}}
	cfg.Scorer.References.Files = []string{refs}
	c := &capture{}
	p, err := New(cfg, telemetry.Settings{}, Options{Extra: []exporter.Exporter{c}})
	if err != nil {
		t.Fatal(err)
	}
	if p.References == nil || p.References.Cases() != 1 {
		t.Fatal("reference store not built")
	}
	ctx := context.Background()
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*agentrun.Trajectory{
		{TraceID: "a", Input: "p", Output: "Paris", Attributes: map[string]string{"eval.case_id": "c1"}},
		{TraceID: "b", Input: "p", Output: "Paris"},
	} {
		if err := p.Engine.Submit(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	byID := map[string]*scorer.Evaluation{}
	for _, ev := range c.evs {
		byID[ev.Trajectory.TraceID] = ev
	}
	if a := byID["a"]; a == nil || len(a.Results) != 1 || a.Results[0].Score != 1 {
		t.Errorf("canary run: %+v", a)
	}
	if b := byID["b"]; b == nil || len(b.NotApplicable) != 1 {
		t.Errorf("plain run: %+v", b)
	}
	n, err := testutil.GatherAndCount(p.Registry, "evalsidecar_reference_lookups_total", "evalsidecar_reference_cases")
	if err != nil || n != 4 {
		t.Errorf("reference metrics: %d series, %v", n, err)
	}

	cfg.Scorer.References.Files = []string{filepath.Join(dir, "missing.jsonl")}
	if _, err := New(cfg, telemetry.Settings{}, Options{}); err == nil || !strings.Contains(err.Error(), "scorer.references") {
		t.Errorf("missing reference file: %v", err)
	}
}
