package dashboards

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// windowRecordings are the increase and ratio recordings of p over each
// window, and with wilson set the Wilson interval bounds of the ratio.
func (g ruleGen) windowRecordings(p proportion, wilson bool, windows ...time.Duration) []Rule {
	var rules []Rule
	for _, d := range windows {
		w := dur(d)
		x, n := p.name(p.failed, "increase"+w), p.name(p.total, "increase"+w)
		rules = append(rules,
			Rule{Record: n, Expr: p.totalExpr(w)},
			Rule{Record: x, Expr: p.failedExpr(w)},
			Rule{Record: p.name(p.failed, "ratio"+w), Expr: x + "\n/\n" + n},
		)
		if wilson {
			rules = append(rules,
				Rule{Record: p.name(p.failed, "wilson_lower"+w), Expr: wilsonBound(x, n, g.p.WilsonZ, "-")},
				Rule{Record: p.name(p.failed, "wilson_upper"+w), Expr: wilsonBound(x, n, g.p.WilsonZ, "+")},
			)
		}
	}
	return rules
}

// wilsonBound is the PromQL of the lower (sign "-") or upper ("+") bound
// of the Wilson score interval of the proportion x/n at z:
// (x + z²/2 ± z·sqrt(x(n−x)/n + z²/4)) / (n + z²). Unlike the normal
// approximation it stays inside [0, 1] and is honest for a handful of
// samples, so alerts built on it need no minimum sample count.
func wilsonBound(x, n string, z float64, sign string) string {
	z2 := z * z
	return fmt.Sprintf("(%s + %g %s %g * sqrt(%s * (%s - %s) / %s + %g))\n/\n(%s + %g)",
		x, z2/2, sign, z, x, n, x, n, z2/4, n, z2)
}

// passRateBurn are the multi-window burn-rate alerts on the pass rate of
// every metric with a pass rule: a tier fires when the failing share over
// its short window is above Factor times the error budget (1 − objective)
// and the Wilson lower bound of the failing share over its long window is
// above it too. The short window makes it fire and resolve fast; the
// Wilson bound keeps it quiet while a new or small agent has too few
// scores to tell, without a minimum sample count.
func (g ruleGen) passRateBurn() []Rule {
	p := g.evalProportion()
	var windows []time.Duration
	for _, b := range g.p.BurnRates {
		windows = append(windows, b.Short, b.Long)
	}
	rules := g.windowRecordings(p, true, windows...)
	type objective struct {
		selector string
		target   float64
	}
	var objs []objective
	var ids []string
	for _, o := range g.p.Objectives {
		objs = append(objs, objective{fmt.Sprintf("{metric=%q}", o.Metric), o.Target})
		ids = append(ids, o.Metric)
	}
	def := ""
	if len(ids) > 0 {
		def = fmt.Sprintf("{metric!~%q}", strings.Join(ids, "|"))
	}
	objs = append(objs, objective{def, g.p.PassRateObjective})
	labels := []string{"service_name", "agent", "metric"}
	for _, b := range g.p.BurnRates {
		long, short := dur(b.Long), dur(b.Short)
		for _, o := range objs {
			// Rounded so that 14.4 × 5 % renders as 0.72.
			bound := math.Round(b.Factor*(1-o.target)*1e9) / 1e9
			expr := fmt.Sprintf("%s%s > %g\nand\n%s%s > %g",
				p.name(p.failed, "ratio"+short), o.selector, bound,
				p.name(p.failed, "wilson_lower"+long), o.selector, bound)
			desc := fmt.Sprintf("{{ $value | humanizePercentage }} of the {{ $labels.metric }} scores of {{ $labels.agent }} ({{ $labels.service_name }}) failed the metric's pass rule over the last %s, and over the last %s the failing share is at least %s (Wilson bound, %s scores): the %g%% pass objective's error budget burns at least %gx (alert above %g%% failing).",
				short, long, query(p.name(p.failed, "wilson_lower"+long), labels, "humanizePercentage"), query(p.name(p.total, "increase"+long), labels, `printf "%.0f"`),
				o.target*100, b.Factor, bound*100)
			r := g.alert("EvalSidecarPassRateBudgetBurn", expr, dur(b.For), b.Severity, categoryQuality,
				"{{ $labels.metric }} of {{ $labels.agent }} ({{ $labels.service_name }}) fails its pass objective ("+long+" burn)", desc)
			r.Labels["burn_window"] = long
			rules = append(rules, r)
		}
	}
	return rules
}

// lowTrafficRegression fires where the failing share of p over the
// low-traffic recent window rose above the baseline window before it by
// Wilson intervals that do not overlap (the recent lower bound above the
// baseline upper bound) and by at least MinEffect, for series below the
// MinSamples per RecentWindow that the z-test alert needs (which covers
// the rest).
func (g ruleGen) lowTrafficRegression(p proportion, selector, alert, severity, summary, what string, labels []string) Rule {
	rw, bw, off := dur(g.p.LowTrafficRecentWindow), dur(g.p.LowTrafficBaselineWindow), dur(g.p.LowTrafficRecentWindow)
	ratio := p.name(p.failed, "ratio")
	total := p.name(p.total, "increase")
	expr := fmt.Sprintf("%s%s > %s offset %s\nand\n%s%s - %s offset %s > %g\nand\n%s%s < %d",
		p.name(p.failed, "wilson_lower"+rw), selector, p.name(p.failed, "wilson_upper"+bw), off,
		ratio+rw, selector, ratio+bw, off, g.p.MinEffect,
		g.recent(total), selector, g.p.MinSamples)
	count := `printf "%.0f"`
	baseline := func(name string) string { return name + bw + " offset " + off }
	desc := fmt.Sprintf("%s was %s over the last %s (%s samples) against %s over the %s before (%s samples); at this traffic (under %d samples per %s) the share's Wilson interval over %s lies above the baseline's: its lower bound is {{ $value | humanizePercentage }} (alerts when the intervals part and the share rose by at least %g percentage points).",
		what, query(ratio+rw, labels, "humanizePercentage"), rw, query(total+rw, labels, count),
		query(baseline(ratio), labels, "humanizePercentage"), bw, query(baseline(total), labels, count),
		g.p.MinSamples, dur(g.p.RecentWindow), rw, g.p.MinEffect*100)
	return g.alert(alert, expr, dur(g.p.For), severity, categoryQuality, summary, desc)
}

// lowTrafficRecordings are the recordings the low-traffic alerts of p read.
func (g ruleGen) lowTrafficRecordings(p proportion) []Rule {
	return g.windowRecordings(p, true, g.p.LowTrafficRecentWindow, g.p.LowTrafficBaselineWindow)
}

// dedupe drops a recording rule whose name an earlier one already
// records (the windows of several alert families can coincide) and
// reports a name recorded with two different expressions.
func dedupe(f RuleFile) (RuleFile, error) {
	seen := map[string]string{}
	for gi := range f.Groups {
		var kept []Rule
		for _, r := range f.Groups[gi].Rules {
			if r.Record != "" {
				if expr, ok := seen[r.Record]; ok {
					if expr != r.Expr {
						return RuleFile{}, fmt.Errorf("recording %s has two expressions:\n%s\n%s", r.Record, expr, strings.TrimSpace(r.Expr))
					}
					continue
				}
				seen[r.Record] = r.Expr
			}
			kept = append(kept, r)
		}
		f.Groups[gi].Rules = kept
	}
	return f, nil
}
