package dashboards

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter/otelevents"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/calibration"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
	"github.com/evalsidecar/evalsidecar/scorer/judge/stage"
)

// describedMetrics records the name and variable labels of every
// collector registered with it, series or not.
type describedMetrics map[string]map[string]bool

var descRE = regexp.MustCompile(`fqName: "([^"]+)".*variableLabels: \{([^}]*)\}`)

func (d describedMetrics) Register(c prometheus.Collector) error {
	ch := make(chan *prometheus.Desc)
	go func() { c.Describe(ch); close(ch) }()
	for desc := range ch {
		m := descRE.FindStringSubmatch(desc.String())
		if m == nil {
			continue
		}
		labels := map[string]bool{}
		for _, l := range strings.Split(m[2], ",") {
			if l = strings.TrimSpace(l); l != "" {
				labels[l] = true
			}
		}
		d[m[1]] = labels
	}
	return nil
}

func (d describedMetrics) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		_ = d.Register(c)
	}
}

func (d describedMetrics) Unregister(prometheus.Collector) bool { return true }

type discardSink struct{}

func (discardSink) Export(context.Context, *scorer.Evaluation) error { return nil }

// judgeCodeMetrics registers the metrics of the judge client, the judge
// stage, the redactor and the OpenTelemetry events exporter, as the
// sidecar does, and returns their names and labels.
func judgeCodeMetrics(t *testing.T) describedMetrics {
	t.Helper()
	reg := describedMetrics{}
	if _, err := judge.NewMetrics(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := stage.New(nil, discardSink{}, stage.Options{}, telemetry.Settings{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	if _, err := redact.New(redact.DefaultConfig(), telemetry.Settings{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	if _, err := otelevents.New(otelevents.DefaultConfig(), telemetry.Settings{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	if _, err := calibration.New(calibration.DefaultConfig(), telemetry.Settings{Registerer: reg}); err != nil {
		t.Fatal(err)
	}
	return reg
}

// judgeMetricRef finds the judge-side metric names in PromQL.
var judgeMetricRef = regexp.MustCompile(`evalsidecar_(?:judge_[a-z_]+|eval_skipped_total|otelevents_[a-z_]+)`)

// byClause finds the label lists of aggregations and vector matching.
var byClause = regexp.MustCompile(`\b(?:by|on) \(([^)]*)\)`)

// TestJudgeQueriesMatchTheCode checks every rule and SRE panel reading a
// judge metric against the metrics the judge code registers: the name
// exists, and the labels the query aggregates or matches on are the
// metric's labels (or the scrape target's job and instance, or le).
func TestJudgeQueriesMatchTheCode(t *testing.T) {
	code := judgeCodeMetrics(t)
	for _, name := range []string{mJudgeRequests, mJudgeLatency, mJudgeTokens, mJudgeCost, mJudgeCircuitOpen,
		mJudgeInFlight, mJudgeRetries, mJudgeQueue, mEvalSkipped, mJudgeRedactions, mOtelEventsRecords,
		mJudgeAgreement, mJudgeAgreementFloor} {
		if code[name] == nil {
			t.Errorf("%s is read by the dashboards but registered by no judge package", name)
		}
	}

	type query struct{ where, expr string }
	var qs []query
	f, err := SRERules(DefaultRuleParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			qs = append(qs, query{"rule " + r.Alert + r.Record, r.Expr})
			if d := r.Annotations["description"]; d != "" {
				qs = append(qs, query{"description of " + r.Alert, d})
			}
		}
	}
	panels, err := PromQueries(Dashboard{UID: SREUID, Build: SRE}, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range panels {
		qs = append(qs, query{"panel " + p.Panel + " " + p.RefID, p.Expr})
	}

	used := 0
	for _, q := range qs {
		names := judgeMetricRef.FindAllString(q.expr, -1)
		if len(names) == 0 {
			continue
		}
		used++
		allowed := map[string]bool{"job": true, "instance": true}
		for _, n := range names {
			n = strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_count")
			labels, ok := code[n]
			if !ok {
				t.Errorf("%s reads %s, which the judge code does not register", q.where, n)
				continue
			}
			for l := range labels {
				allowed[l] = true
			}
			if n == mJudgeLatency {
				allowed["le"] = true
			}
		}
		for _, m := range byClause.FindAllStringSubmatch(q.expr, -1) {
			for _, l := range strings.Split(m[1], ",") {
				if l = strings.TrimSpace(l); l != "" && !allowed[l] {
					t.Errorf("%s groups or matches by %q, not a label of %v:\n%s", q.where, l, names, q.expr)
				}
			}
		}
	}
	if used < 15 {
		t.Errorf("%d rules and panels read judge metrics, want the judge alerts and panels", used)
	}
}

// TestJudgeOutcomesMatchTheCode checks the outcome and reason values the
// judge rules select against the judge's failure classes and the ledger's
// outcomes.
func TestJudgeOutcomesMatchTheCode(t *testing.T) {
	for _, v := range strings.Split(judgeNotFailures, "|") {
		if v != judge.OutcomeOK && v != string(judge.ClassBudget) && v != string(judge.ClassCanceled) {
			t.Errorf("judgeNotFailures: %q is not a judge outcome", v)
		}
	}
	for _, v := range strings.Split(judgeNotAttempts, "|") {
		if v != string(judge.ClassBudget) && v != string(judge.ClassCanceled) {
			t.Errorf("judgeNotAttempts: %q is not a refusal class", v)
		}
	}
	if skipOverBudget != scorer.OutcomeOverBudget || skipQueueFull != scorer.OutcomeQueueFull {
		t.Errorf("skip reasons %q, %q differ from the ledger's %q, %q",
			skipOverBudget, skipQueueFull, scorer.OutcomeOverBudget, scorer.OutcomeQueueFull)
	}
}
