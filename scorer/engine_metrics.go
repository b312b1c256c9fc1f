package scorer

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Error reasons, the values of the reason label of
// evalsidecar_eval_errors_total.
const (
	ReasonError        = "error"
	ReasonTimeout      = "timeout"
	ReasonPanic        = "panic"
	ReasonInvalidScore = "invalid_score"
)

// errorReasons lists every error reason, for pre-initialised series.
func errorReasons() []string {
	return []string{ReasonError, ReasonTimeout, ReasonPanic, ReasonInvalidScore}
}

// Drop reasons counted by the engine under stage "scorer".
const (
	dropStage           = "scorer"
	dropQueueFull       = "queue_full"
	dropShuttingDown    = "shutting_down"
	dropShutdownTimeout = "shutdown_timeout"
)

// engineMetrics are the engine's own Prometheus metrics.
type engineMetrics struct {
	notApplicable *prometheus.CounterVec
	errors        *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	evaluations   prometheus.Counter
	sinkErrors    prometheus.Counter
	queueLength   prometheus.GaugeFunc

	// per configured metric, resolved once so the hot path does no label
	// lookups; indexed like Engine.metrics.
	perMetric []metricSeries
}

// metricSeries are the label children of one configured metric.
type metricSeries struct {
	notApplicable prometheus.Counter
	errors        map[string]prometheus.Counter // by reason
	duration      prometheus.Observer
}

// newEngineMetrics creates the engine's metrics and registers them with
// reg when reg is not nil.
func newEngineMetrics(reg prometheus.Registerer, metrics []Metric, queueLen func() int) (*engineMetrics, error) {
	m := &engineMetrics{
		notApplicable: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_eval_not_applicable_total",
			Help: "Metric evaluations skipped because the metric does not apply to the run (missing inputs or undefined, e.g. a rate over zero tool calls).",
		}, []string{"metric"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_eval_errors_total",
			Help: "Metric evaluations that produced no score, by metric and reason (error, timeout, panic, invalid_score).",
		}, []string{"metric", "reason"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "evalsidecar_scorer_duration_seconds",
			Help:    "Time spent in one metric call on one run.",
			Buckets: []float64{1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"metric"}),
		evaluations: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "evalsidecar_scorer_evaluations_total",
			Help: "Runs evaluated by the scorer's workers.",
		}),
		sinkErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "evalsidecar_scorer_sink_errors_total",
			Help: "Evaluations an exporter reported an error for. Each exporter counts what it dropped itself in evalsidecar_dropped_total; this counts the reports.",
		}),
		queueLength: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "evalsidecar_scorer_queue_length",
			Help: "Runs waiting in the scorer queue.",
		}, func() float64 { return float64(queueLen()) }),
	}
	m.perMetric = make([]metricSeries, len(metrics))
	for i, mt := range metrics {
		name := mt.Name()
		s := &m.perMetric[i]
		s.notApplicable = m.notApplicable.WithLabelValues(name)
		s.errors = make(map[string]prometheus.Counter, len(errorReasons()))
		for _, r := range errorReasons() {
			s.errors[r] = m.errors.WithLabelValues(name, r)
		}
		s.duration = m.duration.WithLabelValues(name)
	}
	return m, telemetry.Register(reg, "scorer",
		m.notApplicable, m.errors, m.duration, m.evaluations, m.sinkErrors, m.queueLength)
}
