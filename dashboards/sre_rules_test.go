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
		// The burn-rate tiers share a name and differ in burn_window.
		key := a.Alert + "/" + a.Labels["burn_window"]
		if seen[key] {
			t.Errorf("alert %s defined twice", key)
		}
		seen[key] = true
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
		{"objective", func(p *RuleParams) { p.PassRateObjective = 1 }, "pass_rate_objective: must be in (0, 1)"},
		{"metric id", func(p *RuleParams) { p.Objectives = []Objective{{Metric: `a"b`, Target: 0.9}} }, "objectives[0].metric"},
		{"repeated", func(p *RuleParams) {
			p.Objectives = []Objective{{Metric: "failure", Target: 0.9}, {Metric: "failure", Target: 0.8}}
		}, "objectives[1].metric: \"failure\" repeated"},
		{"target", func(p *RuleParams) { p.Objectives = []Objective{{Metric: "failure", Target: 0}} }, "objectives[0].target"},
		{"burn windows", func(p *RuleParams) { p.BurnRates[0].Short = p.BurnRates[0].Long }, "burn_rates[0].short: must be shorter than long"},
		{"burn severity", func(p *RuleParams) { p.BurnRates[1].Severity = "page" }, "burn_rates[1].severity"},
		{"wilson", func(p *RuleParams) { p.WilsonZ = 0 }, "wilson_z: must be > 0"},
		{"hallucination", func(p *RuleParams) { p.HallucinationMetrics = []string{"a b"} }, "hallucination_metrics[0]: \"a b\" is not a metric id"},
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
