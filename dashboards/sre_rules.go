package dashboards

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/common/model"
	"gopkg.in/yaml.v3"
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
	// Thresholds define pass and fail for the scored metrics.
	Thresholds []Threshold `yaml:"thresholds"`
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

// FailWhen says on which side of a Threshold's bound a score fails.
type FailWhen string

// FailWhen values.
const (
	// FailAbove: lower is better; a score above the bound fails.
	FailAbove FailWhen = "above"
	// FailAtOrBelow: higher is better; a score at or below the bound fails.
	FailAtOrBelow FailWhen = "at_or_below"
)

// Threshold defines pass and fail of one metric id on the buckets of
// evalsidecar_eval_score. Bound must be one of the histogram's bucket
// bounds, so fail counts are exact for scores on either side of it.
type Threshold struct {
	Metric string   `yaml:"metric"`
	Bound  float64  `yaml:"bound"`
	Fail   FailWhen `yaml:"fail"`
}

// DefaultThresholds are the thresholds of the committed rules: zero-is-good
// rates fail above 0; 0/1 matches fail at 0; tool_args_valid fails at or
// below 0.9; hallucinations_v1 (ADK: passed when >= 0.8) fails at or below
// 0.8, which also fails a score of exactly 0.8; hallucination_v1 (Vertex:
// the share of claims supported, a case passes at 1.0) fails at or below
// 0.9, so one unsupported claim fails a response of up to ten claims.
func DefaultThresholds() []Threshold {
	return []Threshold{
		{Metric: "failure", Bound: 0, Fail: FailAbove},
		{Metric: "tool_error_rate", Bound: 0, Fail: FailAbove},
		{Metric: "repeated_tool_call_rate", Bound: 0, Fail: FailAbove},
		{Metric: "tool_args_valid", Bound: 0.9, Fail: FailAtOrBelow},
		{Metric: "unsupported_facts", Bound: 0, Fail: FailAbove},
		{Metric: "hallucinations_v1", Bound: 0.8, Fail: FailAtOrBelow},
		{Metric: "hallucination_v1", Bound: 0.9, Fail: FailAtOrBelow},
		{Metric: "trajectory_exact_match", Bound: 0, Fail: FailAtOrBelow},
		{Metric: "trajectory_in_order_match", Bound: 0, Fail: FailAtOrBelow},
		{Metric: "trajectory_any_order_match", Bound: 0, Fail: FailAtOrBelow},
	}
}

// DefaultRunbookURL is where the committed rules link their runbooks.
const DefaultRunbookURL = "https://github.com/evalsidecar/evalsidecar/blob/main/docs/runbooks/alerts.md"

// DefaultRuleParams returns the parameters of the committed rule file:
// the last hour against the six hours before it, at least 100 samples in
// each, z > 3.09 and a rise of at least 5 points, held for 15 minutes.
func DefaultRuleParams() RuleParams {
	return RuleParams{
		Interval:             time.Minute,
		RateWindow:           5 * time.Minute,
		RecentWindow:         time.Hour,
		BaselineWindow:       6 * time.Hour,
		BaselineOffset:       time.Hour,
		MinSamples:           100,
		ZThreshold:           3.09,
		LatencyZThreshold:    4,
		MinEffect:            0.05,
		LatencyRatio:         1.25,
		For:                  15 * time.Minute,
		OpsFor:               10 * time.Minute,
		SilenceWindow:        30 * time.Minute,
		Thresholds:           DefaultThresholds(),
		HallucinationMetrics: []string{"unsupported_facts", "hallucinations_v1", "hallucination_v1"},
		RunbookURL:           DefaultRunbookURL,
		UpSelector:           `job=~".*evalsidecar.*"`,
	}
}

// Validate reports every invalid parameter by its key.
func (p RuleParams) Validate() error {
	var errs []error
	pos := func(key string, d time.Duration) {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("%s: must be > 0", key))
		} else if _, err := model.ParseDuration(model.Duration(d).String()); err != nil || d%time.Millisecond != 0 {
			errs = append(errs, fmt.Errorf("%s: %v is not a Prometheus duration", key, d))
		}
	}
	pos("interval", p.Interval)
	pos("rate_window", p.RateWindow)
	pos("recent_window", p.RecentWindow)
	pos("baseline_window", p.BaselineWindow)
	pos("baseline_offset", p.BaselineOffset)
	pos("for", p.For)
	pos("ops_for", p.OpsFor)
	pos("silence_window", p.SilenceWindow)
	if p.BaselineOffset < p.RecentWindow {
		errs = append(errs, errors.New("baseline_offset: must be >= recent_window, or the windows overlap"))
	}
	if p.MinSamples < 1 {
		errs = append(errs, errors.New("min_samples: must be >= 1"))
	}
	if p.ZThreshold <= 0 {
		errs = append(errs, errors.New("z_threshold: must be > 0"))
	}
	if p.LatencyZThreshold <= 0 {
		errs = append(errs, errors.New("latency_z_threshold: must be > 0"))
	}
	if p.MinEffect < 0 || p.MinEffect >= 1 {
		errs = append(errs, errors.New("min_effect: must be in [0, 1)"))
	}
	if p.LatencyRatio <= 1 {
		errs = append(errs, errors.New("latency_ratio: must be > 1"))
	}
	seen := map[string]bool{}
	for i, t := range p.Thresholds {
		switch {
		case !isLabelValue(t.Metric):
			errs = append(errs, fmt.Errorf("thresholds[%d].metric: %q is not a metric id", i, t.Metric))
		case seen[t.Metric]:
			errs = append(errs, fmt.Errorf("thresholds[%d].metric: %q repeated", i, t.Metric))
		case !isBucketBound(t.Bound):
			errs = append(errs, fmt.Errorf("thresholds[%d].bound: %v is not a bucket bound of evalsidecar_eval_score", i, t.Bound))
		case t.Fail != FailAbove && t.Fail != FailAtOrBelow:
			errs = append(errs, fmt.Errorf("thresholds[%d].fail: must be %q or %q", i, FailAbove, FailAtOrBelow))
		}
		seen[t.Metric] = true
	}
	for i, m := range p.HallucinationMetrics {
		if !seen[m] {
			errs = append(errs, fmt.Errorf("hallucination_metrics[%d]: %q has no threshold", i, m))
		}
	}
	if p.RunbookURL == "" {
		errs = append(errs, errors.New("runbook_url: must not be empty"))
	}
	if p.UpSelector == "" {
		errs = append(errs, errors.New("up_selector: must not be empty"))
	}
	return errors.Join(errs...)
}

// isLabelValue reports whether s is a metric id that can be put in a
// PromQL string and a regular expression without escaping.
func isLabelValue(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '_' && r != '-' {
			return false
		}
	}
	return true
}

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
		g.group("evalsidecar.operations", g.operations()),
	}}
	return f, nil
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
