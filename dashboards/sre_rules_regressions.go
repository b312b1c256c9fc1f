package dashboards

import (
	"fmt"
	"strings"
)

// Label values of the generated alerts.
const (
	labelComponent      = "evalsidecar"
	categoryQuality     = "quality"
	categoryOperational = "operational"
	severityCritical    = "critical"
	severityWarning     = "warning"
	severityInfo        = "info"
)

// Recording rule names the dashboard reads (for the default RateWindow of
// 5m; other windows change the suffix).
const (
	levelVersionAgentOutcome = "service_version_agent_outcome"
	levelVersionAgentLe      = "service_version_agent_le"
	levelVersionAgentMetric  = "service_version_agent_metric"
	levelAgentToolOutcome    = "service_agent_tool_outcome"
)

// proportion is a failure proportion tested by a regression alert: failed
// items over all items.
type proportion struct {
	level  string // recording rule level, e.g. service_agent_metric
	failed string // metric part of the failed-count recordings
	total  string // metric part of the total-count recordings
	// failedExpr and totalExpr give the counts over a window.
	failedExpr, totalExpr func(window string) string
}

func (p proportion) name(metric, op string) string { return recordName(p.level, metric, op) }

// recordings are the increase, ratio and z-score recordings of p for the
// recent and the baseline window.
func (g ruleGen) recordings(p proportion) []Rule {
	var rules []Rule
	for _, w := range []string{dur(g.p.RecentWindow), dur(g.p.BaselineWindow)} {
		rules = append(rules,
			Rule{Record: p.name(p.total, "increase"+w), Expr: p.totalExpr(w)},
			Rule{Record: p.name(p.failed, "increase"+w), Expr: p.failedExpr(w)},
			Rule{Record: p.name(p.failed, "ratio"+w), Expr: p.name(p.failed, "increase"+w) + "\n/\n" + p.name(p.total, "increase"+w)},
		)
	}
	rules = append(rules, Rule{Record: p.name(p.failed, "zscore"+dur(g.p.RecentWindow)), Expr: zScore(
		g.recent(p.name(p.failed, "increase")), g.recent(p.name(p.total, "increase")),
		g.baseline(p.name(p.failed, "increase")), g.baseline(p.name(p.total, "increase")),
	)})
	return rules
}

// recent and baseline complete a recording name prefix ending in the
// operation ("...:increase") with the window, and the offset for the
// baseline.
func (g ruleGen) recent(prefix string) string { return prefix + dur(g.p.RecentWindow) }
func (g ruleGen) baseline(prefix string) string {
	return prefix + dur(g.p.BaselineWindow) + " offset " + dur(g.p.BaselineOffset)
}

// regressionExpr fires where the z score of p passes z, the proportion
// rose by at least MinEffect, and both windows hold MinSamples items.
// selector narrows the series (e.g. `{metric!~"..."}`).
func (g ruleGen) regressionExpr(p proportion, selector string) string {
	ratio := p.name(p.failed, "ratio")
	total := p.name(p.total, "increase")
	return fmt.Sprintf("%s%s > %g\nand\n%s%s - %s > %g\nand\n%s%s >= %d\nand\n%s >= %d",
		p.name(p.failed, "zscore"+dur(g.p.RecentWindow)), selector, g.p.ZThreshold,
		g.recent(ratio), selector, g.baseline(ratio), g.p.MinEffect,
		g.recent(total), selector, g.p.MinSamples,
		g.baseline(total), g.p.MinSamples)
}

// query renders a template that runs a PromQL query for the alert's own
// series (matched on the labels named) and formats the first value.
func query(expr string, labels []string, format string) string {
	var matchers, args []string
	for _, l := range labels {
		matchers = append(matchers, l+"=%q")
		args = append(args, "$labels."+l)
	}
	var sel string
	if i := strings.Index(expr, " offset "); i >= 0 {
		sel = expr[:i] + "{" + strings.Join(matchers, ",") + "}" + expr[i:]
	} else {
		sel = expr + "{" + strings.Join(matchers, ",") + "}"
	}
	return fmt.Sprintf(`{{ with printf "%s" %s | query }}{{ . | first | value | %s }}{{ end }}`,
		sel, strings.Join(args, " "), format)
}

// proportionDescription describes a proportion regression with its numbers.
func (g ruleGen) proportionDescription(p proportion, what string, labels []string) string {
	ratio := p.name(p.failed, "ratio")
	total := p.name(p.total, "increase")
	count := `printf "%.0f"`
	return fmt.Sprintf("%s was %s over the last %s (%s samples) against %s over the %s baseline ending %s ago (%s samples): z = {{ $value | printf \"%%.1f\" }} (alerts above z %g with a rise of at least %g percentage points and %d samples in each window).",
		what,
		query(g.recent(ratio), labels, "humanizePercentage"), dur(g.p.RecentWindow), query(g.recent(total), labels, count),
		query(g.baseline(ratio), labels, "humanizePercentage"), dur(g.p.BaselineWindow), dur(g.p.BaselineOffset), query(g.baseline(total), labels, count),
		g.p.ZThreshold, g.p.MinEffect*100, g.p.MinSamples)
}

// alert builds an alerting rule with the common labels and annotations.
func (g ruleGen) alert(name, expr, forDur, severity, category, summary, description string) Rule {
	return Rule{
		Alert: name,
		Expr:  expr,
		For:   forDur,
		Labels: map[string]string{
			"severity":  severity,
			"category":  category,
			"component": labelComponent,
		},
		Annotations: map[string]string{
			"summary":     summary,
			"description": description,
			"runbook_url": g.p.RunbookURL + "#" + strings.ToLower(name),
		},
	}
}

// evalProportion is the share of scores that fail their metric's pass
// rule, for every metric with one (a metric without a pass rule has no
// evalsidecar_eval_passed_total series, so it has no proportion).
func (g ruleGen) evalProportion() proportion {
	// scored, and scored minus passed, of the metrics with a passed series
	scores := func(op, w string) string {
		return fmt.Sprintf("sum by (service_name, agent, metric) (increase(%s[%s]))\n%s\nsum by (service_name, agent, metric) (increase(%s[%s]))",
			mEvalScored, w, op, mEvalPassed, w)
	}
	return proportion{
		level:  "service_agent_metric",
		failed: "evalsidecar_eval_failed", total: "evalsidecar_eval_scored",
		totalExpr:  func(w string) string { return scores("and", w) },
		failedExpr: func(w string) string { return scores("-", w) },
	}
}

// rateRecordings are the per-release rates the SRE dashboard reads.
func (g ruleGen) rateRecordings() []Rule {
	w := dur(g.p.RateWindow)
	rate := func(level, name, by, series string) Rule {
		return Rule{Record: recordName(level, name, "rate"+w), Expr: fmt.Sprintf("sum by (%s) (rate(%s[%s]))", by, series, w)}
	}
	byVersion := "service_name, service_version, agent"
	byMetric := byVersion + ", metric"
	return []Rule{
		rate(levelVersionAgentOutcome, "evalsidecar_trajectories", byVersion+", outcome", mTrajectories),
		rate(levelVersionAgentLe, mTrajectoryDuration+"_bucket", byVersion+", le", mTrajectoryDuration+"_bucket"),
		rate(levelVersionAgentMetric, "evalsidecar_eval_scored", byMetric, mEvalScored),
		rate(levelVersionAgentMetric, "evalsidecar_eval_passed", byMetric, mEvalPassed),
		rate(levelVersionAgentMetric, mEvalScoreRatio+"_sum", byMetric, mEvalScoreRatio+"_sum"),
		rate(levelVersionAgentMetric, mEvalScoreRatio+"_count", byMetric, mEvalScoreRatio+"_count"),
		rate(levelAgentToolOutcome, "evalsidecar_tool_calls", "service_name, agent, tool, outcome", mToolCalls),
	}
}

// qualityRegressions test the pass rate of every thresholded metric, with
// hallucination metrics in an alert of their own.
func (g ruleGen) qualityRegressions() []Rule {
	p := g.evalProportion()
	rules := g.recordings(p)
	labels := []string{"service_name", "agent", "metric"}
	hallu := strings.Join(g.p.HallucinationMetrics, "|")
	other := ""
	if hallu != "" {
		other = fmt.Sprintf("{metric!~%q}", hallu)
	}
	rules = append(rules, g.alert("EvalSidecarPassRateRegression",
		g.regressionExpr(p, other), dur(g.p.For), severityWarning, categoryQuality,
		"{{ $labels.metric }} fails more often for {{ $labels.agent }} ({{ $labels.service_name }})",
		g.proportionDescription(p, "The share of {{ $labels.metric }} scores that fail", labels)))
	if hallu != "" {
		rules = append(rules, g.alert("EvalSidecarHallucinationRateRegression",
			g.regressionExpr(p, fmt.Sprintf("{metric=~%q}", hallu)), dur(g.p.For), severityCritical, categoryQuality,
			"{{ $labels.agent }} ({{ $labels.service_name }}) states unsupported facts more often ({{ $labels.metric }})",
			g.proportionDescription(p, "The share of runs with unsupported facts ({{ $labels.metric }})", labels)))
	}
	rules = append(rules, g.lowTrafficRecordings(p)...)
	rules = append(rules, g.lowTrafficRegression(p, other, "EvalSidecarPassRateRegressionLowTraffic", severityWarning,
		"{{ $labels.metric }} fails more often for {{ $labels.agent }} ({{ $labels.service_name }}, low traffic)",
		"The share of {{ $labels.metric }} scores that fail", labels))
	if hallu != "" {
		rules = append(rules, g.lowTrafficRegression(p, fmt.Sprintf("{metric=~%q}", hallu), "EvalSidecarHallucinationRateRegressionLowTraffic", severityCritical,
			"{{ $labels.agent }} ({{ $labels.service_name }}) states unsupported facts more often ({{ $labels.metric }}, low traffic)",
			"The share of runs with unsupported facts ({{ $labels.metric }})", labels))
	}
	return rules
}

// runRegressions test the run failure rate and the tool error rate.
func (g ruleGen) runRegressions() []Rule {
	runs := countProportion("service_agent", "service_name, agent", "evalsidecar_trajectories", mTrajectories, `{outcome="failed"}`)
	tools := countProportion("service_agent_tool", "service_name, agent, tool", "evalsidecar_tool_calls", mToolCalls, `{outcome="error"}`)
	rules := append(g.recordings(runs), g.recordings(tools)...)
	rules = append(rules,
		g.alert("EvalSidecarRunFailureRateRegression", g.regressionExpr(runs, ""), dur(g.p.For), severityCritical, categoryQuality,
			"Runs of {{ $labels.agent }} ({{ $labels.service_name }}) fail more often",
			g.proportionDescription(runs, "The share of failed runs", []string{"service_name", "agent"})),
		g.alert("EvalSidecarToolErrorRateRegression", g.regressionExpr(tools, ""), dur(g.p.For), severityWarning, categoryQuality,
			"Tool {{ $labels.tool }} of {{ $labels.agent }} ({{ $labels.service_name }}) fails more often",
			g.proportionDescription(tools, "The share of failed {{ $labels.tool }} calls", []string{"service_name", "agent", "tool"})),
	)
	rules = append(rules, g.lowTrafficRecordings(runs)...)
	rules = append(rules, g.lowTrafficRecordings(tools)...)
	rules = append(rules,
		g.lowTrafficRegression(runs, "", "EvalSidecarRunFailureRateRegressionLowTraffic", severityCritical,
			"Runs of {{ $labels.agent }} ({{ $labels.service_name }}) fail more often (low traffic)",
			"The share of failed runs", []string{"service_name", "agent"}),
		g.lowTrafficRegression(tools, "", "EvalSidecarToolErrorRateRegressionLowTraffic", severityWarning,
			"Tool {{ $labels.tool }} of {{ $labels.agent }} ({{ $labels.service_name }}) fails more often (low traffic)",
			"The share of failed {{ $labels.tool }} calls", []string{"service_name", "agent", "tool"}),
	)
	return rules
}

// countProportion is the share of the increase of counter whose series
// match failedSel, summed by the labels in by; its recordings are named
// total and total_failed.
func countProportion(level, by, total, counter, failedSel string) proportion {
	sum := func(sel, w string) string {
		return fmt.Sprintf("sum by (%s) (increase(%s%s[%s]))", by, counter, sel, w)
	}
	return proportion{
		level: level, failed: total + "_failed", total: total,
		totalExpr:  func(w string) string { return sum("", w) },
		failedExpr: func(w string) string { return sum(failedSel, w) },
	}
}

// latencyRegressions test p95 run latency: the p95 must have grown by
// LatencyRatio, and for some histogram bucket the share of runs slower
// than its bound must have risen significantly (a z test per bucket, at
// the stricter LatencyZThreshold because several buckets are tested).
func (g ruleGen) latencyRegressions() []Rule {
	bucket := func(w string) string {
		return fmt.Sprintf("sum by (service_name, agent, le) (increase(%s_bucket{le!=\"+Inf\"}[%s]))", mTrajectoryDuration, w)
	}
	count := func(w string) string {
		return fmt.Sprintf("sum by (service_name, agent) (increase(%s_count[%s]))", mTrajectoryDuration, w)
	}
	slow := proportion{
		level:  "service_agent_le",
		failed: "evalsidecar_trajectories_slower", total: "evalsidecar_trajectories_timed",
		totalExpr:  func(w string) string { return bucket(w) + " * 0\n+ on (service_name, agent) group_left\n" + count(w) },
		failedExpr: func(w string) string { return bucket(w) + " * -1\n+ on (service_name, agent) group_left\n" + count(w) },
	}
	rules := g.recordings(slow)
	p95 := func(w string) Rule {
		return Rule{
			Record: recordName("service_agent", mTrajectoryDuration, "p95_"+w),
			Expr:   fmt.Sprintf("histogram_quantile(0.95, sum by (service_name, agent, le) (increase(%s_bucket[%s])))", mTrajectoryDuration, w),
		}
	}
	recentP95, baseP95 := p95(dur(g.p.RecentWindow)), p95(dur(g.p.BaselineWindow))
	rules = append(rules, recentP95, baseP95)
	baseP95Sel := baseP95.Record + " offset " + dur(g.p.BaselineOffset)
	timed := slow.name(slow.total, "increase")
	expr := fmt.Sprintf("max by (service_name, agent) (%s) > %g\nand on (service_name, agent)\n%s > %g * %s\nand on (service_name, agent)\nmax by (service_name, agent) (%s) >= %d\nand on (service_name, agent)\nmax by (service_name, agent) (%s) >= %d",
		slow.name(slow.failed, "zscore"+dur(g.p.RecentWindow)), g.p.LatencyZThreshold,
		recentP95.Record, g.p.LatencyRatio, baseP95Sel,
		g.recent(timed), g.p.MinSamples, g.baseline(timed), g.p.MinSamples)
	labels := []string{"service_name", "agent"}
	desc := fmt.Sprintf("p95 run latency was %s over the last %s against %s over the %s baseline ending %s ago; the largest rise in the share of slower runs has z = {{ $value | printf \"%%.1f\" }} (alerts above z %g with p95 above %g times the baseline and %d runs in each window).",
		query(recentP95.Record, labels, "humanizeDuration"), dur(g.p.RecentWindow),
		query(baseP95Sel, labels, "humanizeDuration"), dur(g.p.BaselineWindow), dur(g.p.BaselineOffset),
		g.p.LatencyZThreshold, g.p.LatencyRatio, g.p.MinSamples)
	rules = append(rules, g.alert("EvalSidecarLatencyRegression", expr, dur(g.p.For), severityWarning, categoryQuality,
		"p95 run latency of {{ $labels.agent }} ({{ $labels.service_name }}) regressed", desc))
	return rules
}
