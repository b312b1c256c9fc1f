package dashboards

import (
	"bytes"
	"fmt"
	"regexp"
	"time"

	"github.com/prometheus/common/model"
	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// RuleParams are the knobs of the generated Prometheus recording and alert
// rules. The committed rule file uses DefaultRuleParams; tests generate a
// variant with windows of seconds.
type RuleParams struct {
	// Interval is the evaluation interval of every rule group.
	Interval time.Duration `yaml:"interval"`
	// RateWindow is the window of the rate recordings the dashboards read
	// and of the operational alerts.
	RateWindow time.Duration `yaml:"rate_window"`
	// RecentWindow is the window a regression alert tests.
	RecentWindow time.Duration `yaml:"recent_window"`
	// BaselineWindow is the length of the baseline the recent window is
	// compared with.
	BaselineWindow time.Duration `yaml:"baseline_window"`
	// BaselineOffset is how far back the baseline ends. The default,
	// RecentWindow, makes the baseline the period just before the recent
	// window (after a rollout: the previous release); 24h or 168h compare
	// with the same hours a day or a week earlier.
	BaselineOffset time.Duration `yaml:"baseline_offset"`
	// MinSamples is the number of runs (or scores, or tool calls) each of
	// the two windows needs before a regression alert may fire.
	MinSamples int `yaml:"min_samples"`
	// ZThreshold is the one-sided two-proportion z score above which a
	// rise in a failure proportion is significant (3.09: p < 0.001).
	ZThreshold float64 `yaml:"z_threshold"`
	// LatencyZThreshold is the z score for the latency alert, which tests
	// every histogram bucket and so needs a stricter bar.
	LatencyZThreshold float64 `yaml:"latency_z_threshold"`
	// MinEffect is the smallest absolute rise of a failure proportion
	// worth an alert, however significant (0.05: five percentage points).
	MinEffect float64 `yaml:"min_effect"`
	// LatencyRatio is the factor by which p95 run latency must exceed the
	// baseline's p95.
	LatencyRatio float64 `yaml:"latency_ratio"`
	// For is how long a regression must hold before its alert fires.
	For time.Duration `yaml:"for"`
	// OpsFor is how long an operational condition must hold.
	OpsFor time.Duration `yaml:"ops_for"`
	// SilenceWindow is how long a service that sent runs may stay silent
	// before EvalSidecarNoTrajectories fires; the service must have sent
	// runs in the SilenceWindow before that.
	SilenceWindow time.Duration `yaml:"silence_window"`
	// PassRateObjective is the share of a metric's scores that should
	// pass its pass rule (the rule is the metric's, configured in the
	// sidecar): the objective of the burn-rate alerts for every metric
	// with a pass rule and no entry in Objectives.
	PassRateObjective float64 `yaml:"pass_rate_objective"`
	// Objectives override PassRateObjective per metric id.
	Objectives []Objective `yaml:"objectives"`
	// BurnRates are the tiers of the pass-rate burn-rate alerts.
	BurnRates []BurnRate `yaml:"burn_rates"`
	// WilsonZ is the z of the Wilson score interval the burn-rate and
	// low-traffic regression alerts test (2.326: one-sided 99 %, so one
	// failure in three scores does not burn a 95 % objective).
	WilsonZ float64 `yaml:"wilson_z"`
	// LowTrafficRecentWindow and LowTrafficBaselineWindow are the longer
	// windows of the low-traffic regression alerts, which compare Wilson
	// intervals instead of needing MinSamples runs (the baseline ends
	// where the recent window starts).
	LowTrafficRecentWindow   time.Duration `yaml:"low_traffic_recent_window"`
	LowTrafficBaselineWindow time.Duration `yaml:"low_traffic_baseline_window"`
	// HallucinationMetrics are the metric ids whose failures are reported
	// as hallucinations (their own alert, critical) instead of by the
	// generic pass-rate alert.
	HallucinationMetrics []string `yaml:"hallucination_metrics"`
	// RunbookURL is the base address of the runbook; each alert links to
	// RunbookURL#<alert name in lower case>.
	RunbookURL string `yaml:"runbook_url"`
	// UpSelector selects the sidecar's scrape targets for EvalSidecarDown.
	UpSelector string `yaml:"up_selector"`
}

// Objective is the pass-rate objective of one metric id.
type Objective struct {
	Metric string  `yaml:"metric"`
	Target float64 `yaml:"target"`
}

// BurnRate is one tier of the multi-window burn-rate alerts: it fires when
// the failing share of scores is above Factor times the error budget (1 -
// objective) over the Short window, and the Wilson lower bound of the
// failing share over the Long window is above it too.
type BurnRate struct {
	Long     time.Duration `yaml:"long"`
	Short    time.Duration `yaml:"short"`
	Factor   float64       `yaml:"factor"`
	Severity string        `yaml:"severity"`
	For      time.Duration `yaml:"for"`
}

// DefaultRunbookURL is where the committed rules link their runbooks.
const DefaultRunbookURL = "https://github.com/evalsidecar/evalsidecar/blob/main/docs/runbooks/alerts.md"

// DefaultRuleParams returns the parameters of the committed rule file:
// regressions compare the last hour with the six hours before it (at
// least 100 samples in each, z > 3.09 and a rise of at least 5 points,
// held for 15 minutes) and, for agents below that traffic, the last 6h
// with the 24h before it by Wilson intervals; pass rates should be 95 %
// with the workbook's burn-rate tiers (14.4x over 1h and 5m, 6x over 6h
// and 30m, 1x over 3d and 6h).
func DefaultRuleParams() RuleParams {
	return RuleParams{
		Interval:          time.Minute,
		RateWindow:        5 * time.Minute,
		RecentWindow:      time.Hour,
		BaselineWindow:    6 * time.Hour,
		BaselineOffset:    time.Hour,
		MinSamples:        100,
		ZThreshold:        3.09,
		LatencyZThreshold: 4,
		MinEffect:         0.05,
		LatencyRatio:      1.25,
		For:               15 * time.Minute,
		OpsFor:            10 * time.Minute,
		SilenceWindow:     30 * time.Minute,
		PassRateObjective: 0.95,
		BurnRates: []BurnRate{
			{Long: time.Hour, Short: 5 * time.Minute, Factor: 14.4, Severity: severityCritical, For: 2 * time.Minute},
			{Long: 6 * time.Hour, Short: 30 * time.Minute, Factor: 6, Severity: severityCritical, For: 5 * time.Minute},
			{Long: 3 * 24 * time.Hour, Short: 6 * time.Hour, Factor: 1, Severity: severityWarning, For: time.Hour},
		},
		WilsonZ:                  2.326,
		LowTrafficRecentWindow:   6 * time.Hour,
		LowTrafficBaselineWindow: 24 * time.Hour,
		HallucinationMetrics:     []string{"unsupported_facts", "hallucinations_v1", "hallucination_v1"},
		RunbookURL:               DefaultRunbookURL,
		UpSelector:               `job=~".*evalsidecar.*"`,
	}
}

// Validate reports every invalid parameter by its key.
func (p RuleParams) Validate() error {
	var v errs.Checks
	pos := func(key string, d time.Duration) {
		_, err := model.ParseDuration(model.Duration(d).String())
		v.Check(d <= 0, "%s: must be > 0", key)
		v.Check(d > 0 && (err != nil || d%time.Millisecond != 0), "%s: %v is not a Prometheus duration", key, d)
	}
	pos("interval", p.Interval)
	pos("rate_window", p.RateWindow)
	pos("recent_window", p.RecentWindow)
	pos("baseline_window", p.BaselineWindow)
	pos("baseline_offset", p.BaselineOffset)
	pos("for", p.For)
	pos("ops_for", p.OpsFor)
	pos("silence_window", p.SilenceWindow)
	v.Check(p.BaselineOffset < p.RecentWindow, "baseline_offset: must be >= recent_window, or the windows overlap")
	v.Check(p.MinSamples < 1, "min_samples: must be >= 1")
	v.Check(p.ZThreshold <= 0, "z_threshold: must be > 0")
	v.Check(p.LatencyZThreshold <= 0, "latency_z_threshold: must be > 0")
	v.Check(p.MinEffect < 0 || p.MinEffect >= 1, "min_effect: must be in [0, 1)")
	v.Check(p.LatencyRatio <= 1, "latency_ratio: must be > 1")
	pos("low_traffic_recent_window", p.LowTrafficRecentWindow)
	pos("low_traffic_baseline_window", p.LowTrafficBaselineWindow)
	v.Check(p.WilsonZ <= 0, "wilson_z: must be > 0")
	target := func(key string, x float64) { v.Check(!(x > 0 && x < 1), "%s: must be in (0, 1), got %v", key, x) }
	target("pass_rate_objective", p.PassRateObjective)
	seen := map[string]bool{}
	for i, o := range p.Objectives {
		v.Check(!isLabelValue(o.Metric), "objectives[%d].metric: %q is not a metric id", i, o.Metric)
		v.Check(isLabelValue(o.Metric) && seen[o.Metric], "objectives[%d].metric: %q repeated", i, o.Metric)
		seen[o.Metric] = true
		target(fmt.Sprintf("objectives[%d].target", i), o.Target)
	}
	for i, b := range p.BurnRates {
		key := fmt.Sprintf("burn_rates[%d]", i)
		pos(key+".long", b.Long)
		pos(key+".short", b.Short)
		pos(key+".for", b.For)
		v.Check(b.Short >= b.Long, "%s.short: must be shorter than long", key)
		v.Check(b.Factor <= 0, "%s.factor: must be > 0", key)
		v.Check(b.Severity != severityCritical && b.Severity != severityWarning && b.Severity != severityInfo,
			"%s.severity: must be %q, %q or %q", key, severityCritical, severityWarning, severityInfo)
	}
	for i, m := range p.HallucinationMetrics {
		v.Check(!isLabelValue(m), "hallucination_metrics[%d]: %q is not a metric id", i, m)
	}
	v.Check(p.RunbookURL == "", "runbook_url: must not be empty")
	v.Check(p.UpSelector == "", "up_selector: must not be empty")
	return v.Err()
}

// isLabelValue reports whether s is a metric id that can be put in a
// PromQL string and a regular expression without escaping.
var isLabelValue = regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString

// RuleFile is a Prometheus rule file.
type RuleFile struct {
	Groups []RuleGroup `yaml:"groups"`
}

// RuleGroup is one group of rules evaluated together, in order.
type RuleGroup struct {
	Name     string `yaml:"name"`
	Interval string `yaml:"interval,omitempty"`
	Rules    []Rule `yaml:"rules"`
}

// Rule is a recording rule (Record set) or an alerting rule (Alert set).
type Rule struct {
	Record      string            `yaml:"record,omitempty"`
	Alert       string            `yaml:"alert,omitempty"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

// Alerts returns the alerting rules of f in order.
func (f RuleFile) Alerts() []Rule {
	var out []Rule
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				out = append(out, r)
			}
		}
	}
	return out
}

// SRERules returns the recording and alerting rules for p.
func SRERules(p RuleParams) (RuleFile, error) {
	if err := p.Validate(); err != nil {
		return RuleFile{}, fmt.Errorf("rule params: %w", err)
	}
	g := ruleGen{p: p}
	f := RuleFile{Groups: []RuleGroup{
		g.group("evalsidecar.rates", g.rateRecordings()),
		g.group("evalsidecar.quality-regressions", g.qualityRegressions()),
		g.group("evalsidecar.run-regressions", g.runRegressions()),
		g.group("evalsidecar.latency-regressions", g.latencyRegressions()),
		g.group("evalsidecar.pass-rate-burn", g.passRateBurn()),
		g.group("evalsidecar.pairwise", g.pairwiseRecordings()),
		g.group("evalsidecar.operations", g.operations()),
	}}
	return dedupe(f)
}

// RenderRules returns the rule file for p as YAML.
func RenderRules(p RuleParams) ([]byte, error) {
	f, err := SRERules(p)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteString("# Generated by `go test ./dashboards -update` from dashboards/sre_rules*.go; do not edit.\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ruleGen builds rules for one set of parameters.
type ruleGen struct{ p RuleParams }

func (g ruleGen) group(name string, rules []Rule) RuleGroup {
	return RuleGroup{Name: name, Interval: dur(g.p.Interval), Rules: rules}
}

// dur renders d as a Prometheus duration ("90s" becomes "1m30s").
func dur(d time.Duration) string { return model.Duration(d).String() }
