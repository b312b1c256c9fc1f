package dashboards

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RulesFile is the committed rule file, inside the Helm chart so the
// chart can ship it as a PrometheusRule.
var rulesFile = filepath.Join("..", "deploy", "helm", "evalsidecar", "files", "evalsidecar.rules.yaml")

// TestRulesUpToDate fails when the committed rule file differs from what
// DefaultRuleParams generate; `go test ./dashboards -update` rewrites it.
func TestRulesUpToDate(t *testing.T) {
	got, err := RenderRules(DefaultRuleParams())
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(rulesFile), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rulesFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatalf("%v (run go test ./dashboards -update)", err)
	}
	if !bytes.Equal(committed, got) {
		t.Errorf("%s is stale: run go test ./dashboards -update", rulesFile)
	}
}

// TestRulesHaveRunbooks checks that every alert has a summary, a
// description, routing labels and a runbook section that exists.
func TestRulesHaveRunbooks(t *testing.T) {
	f, err := SRERules(DefaultRuleParams())
	if err != nil {
		t.Fatal(err)
	}
	runbook, err := os.ReadFile(filepath.Join("..", "docs", "runbooks", "alerts.md"))
	if err != nil {
		t.Fatal(err)
	}
	alerts := f.Alerts()
	if len(alerts) < 10 {
		t.Fatalf("%d alerts, want the regression and operational alerts", len(alerts))
	}
	seen := map[string]bool{}
	for _, a := range alerts {
		if seen[a.Alert] {
			t.Errorf("alert %s defined twice", a.Alert)
		}
		seen[a.Alert] = true
		for _, k := range []string{"summary", "description", "runbook_url"} {
			if a.Annotations[k] == "" {
				t.Errorf("%s: no %s", a.Alert, k)
			}
		}
		for _, k := range []string{"severity", "category", "component"} {
			if a.Labels[k] == "" {
				t.Errorf("%s: no %s label", a.Alert, k)
			}
		}
		if !strings.HasPrefix(a.Annotations["runbook_url"], DefaultRunbookURL+"#"+strings.ToLower(a.Alert)) {
			t.Errorf("%s: runbook_url %q", a.Alert, a.Annotations["runbook_url"])
		}
		if !bytes.Contains(runbook, []byte("\n## "+a.Alert+"\n")) {
			t.Errorf("docs/runbooks/alerts.md has no section \"## %s\"", a.Alert)
		}
	}
}

func TestRuleParamsValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*RuleParams)
		want   string
	}{
		{"defaults", func(*RuleParams) {}, ""},
		{"zero window", func(p *RuleParams) { p.RecentWindow = 0 }, "recent_window: must be > 0"},
		{"overlap", func(p *RuleParams) { p.BaselineOffset = p.RecentWindow / 2 }, "baseline_offset: must be >= recent_window"},
		{"min samples", func(p *RuleParams) { p.MinSamples = 0 }, "min_samples: must be >= 1"},
		{"effect", func(p *RuleParams) { p.MinEffect = 1 }, "min_effect: must be in [0, 1)"},
		{"ratio", func(p *RuleParams) { p.LatencyRatio = 1 }, "latency_ratio: must be > 1"},
		{"bound", func(p *RuleParams) { p.Thresholds[0].Bound = 0.55 }, "thresholds[0].bound: 0.55 is not a bucket bound"},
		{"metric id", func(p *RuleParams) { p.Thresholds[0].Metric = `a"b` }, "thresholds[0].metric"},
		{"repeated", func(p *RuleParams) { p.Thresholds[1].Metric = p.Thresholds[0].Metric }, "thresholds[1].metric: \"failure\" repeated"},
		{"fail side", func(p *RuleParams) { p.Thresholds[0].Fail = "below" }, "thresholds[0].fail"},
		{"hallucination", func(p *RuleParams) { p.HallucinationMetrics = []string{"nope"} }, "hallucination_metrics[0]: \"nope\" has no threshold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultRuleParams()
			tt.mutate(&p)
			err := p.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want %q", err, tt.want)
			}
			if _, err := SRERules(p); err == nil {
				t.Error("SRERules accepted invalid params")
			}
		})
	}
}

func TestLeMatcher(t *testing.T) {
	f := func(v float64, want string) {
		t.Helper()
		if got := leMatcher(v); got != want {
			t.Errorf("leMatcher(%v) = %s, want %s", v, got, want)
		}
	}
	f(0, `le=~"0|0\\.0"`)
	f(1, `le=~"1|1\\.0"`)
	f(0.9, `le="0.9"`)
	f(2.5, `le="2.5"`)
}
