package stage

import (
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// skipReasons are the ledger outcomes that leave a run unjudged: the
// reason label values of evalsidecar_eval_skipped_total.
var skipReasons = []string{
	scorer.OutcomeSampledOut, scorer.OutcomeFiltered, scorer.OutcomeOverBudget,
	scorer.OutcomeQueueFull, scorer.OutcomeJudgeError, scorer.OutcomeNotApplicable,
	scorer.OutcomeShuttingDown,
}

// ledgerOutcomes are every outcome label value of
// evalsidecar_judge_decisions_total.
var ledgerOutcomes = append([]string{scorer.OutcomeScored, scorer.OutcomeCached, scorer.OutcomeQueued}, skipReasons...)

// stageMetrics are the stage's Prometheus metrics.
type stageMetrics struct {
	skipped   *prometheus.CounterVec
	decisions *prometheus.CounterVec
	queueLen  *prometheus.GaugeVec

	// series holds the children of every configured metric and outcome,
	// resolved once so that Offer does no label lookups.
	series map[string]map[string]outcomeSeries
}

// outcomeSeries are the counters one (metric, outcome) decision adds to;
// skipped is nil for the outcomes that are not skips.
type outcomeSeries struct {
	decisions, skipped prometheus.Counter
}

func newStageMetrics(reg prometheus.Registerer, metricIDs, judges []string) (*stageMetrics, error) {
	m := &stageMetrics{
		skipped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_eval_skipped_total",
			Help: "Judge metric evaluations not made, by metric and reason (sampled_out, filtered, over_budget, queue_full, judge_error, not_applicable, shutting_down).",
		}, []string{"metric", "reason"}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_judge_decisions_total",
			Help: "Judge-ledger decisions, by metric and outcome (queued, scored, cached and every skip reason).",
		}, []string{"metric", "outcome"}),
		queueLen: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "evalsidecar_judge_queue_length",
			Help: "Runs waiting for a judge, by judge.",
		}, []string{"judge"}),
	}
	m.series = make(map[string]map[string]outcomeSeries, len(metricIDs))
	for _, id := range metricIDs {
		m.series[id] = make(map[string]outcomeSeries, len(ledgerOutcomes))
		for _, o := range ledgerOutcomes {
			m.series[id][o] = m.newSeries(id, o)
		}
	}
	for _, j := range judges {
		m.queueLen.WithLabelValues(j)
	}
	return m, telemetry.Register(reg, "judge stage", m.skipped, m.decisions, m.queueLen)
}

// newSeries resolves the series of one (metric, outcome).
func (m *stageMetrics) newSeries(metric, outcome string) outcomeSeries {
	os := outcomeSeries{decisions: m.decisions.WithLabelValues(metric, outcome)}
	if slices.Contains(skipReasons, outcome) {
		os.skipped = m.skipped.WithLabelValues(metric, outcome)
	}
	return os
}

// count records one ledger decision.
func (m *stageMetrics) count(d scorer.Decision) {
	os, ok := m.series[d.Metric][d.Outcome]
	if !ok { // a metric or outcome not known at construction
		os = m.newSeries(d.Metric, d.Outcome)
	}
	os.decisions.Inc()
	if os.skipped != nil {
		os.skipped.Inc()
	}
}
