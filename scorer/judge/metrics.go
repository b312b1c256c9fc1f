package judge

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Metrics are the judge clients' Prometheus metrics. One Metrics serves
// every client: each series carries the judge's name. Label values come
// only from the configuration (judge name, model) and the fixed Class
// set, never from request or answer content. A nil *Metrics records
// nothing.
type Metrics struct {
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	tokens      *prometheus.CounterVec
	cost        *prometheus.CounterVec
	circuitOpen *prometheus.GaugeVec
	inFlight    *prometheus.GaugeVec
	retries     *prometheus.CounterVec
}

// OutcomeOK is the outcome label of a successful attempt.
const OutcomeOK = "ok"

// durationBuckets spans fast structured answers to the longest judge
// calls, up to 120s.
var durationBuckets = []float64{0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120}

// NewMetrics creates the judge metrics and registers them on reg; a nil
// reg registers nothing.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_judge_requests_total",
			Help: `Judge attempts by outcome ("ok" or a failure class), and calls refused by an open circuit or a budget.`,
		}, []string{"judge", "model", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "evalsidecar_judge_request_duration_seconds",
			Help:    "Duration of judge attempts, failed ones included.",
			Buckets: durationBuckets,
		}, []string{"judge", "model"}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_judge_tokens_total",
			Help: "Tokens used by judge calls, as the provider reports them.",
		}, []string{"judge", "model", "type"}),
		cost: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_judge_cost_usd_total",
			Help: "Estimated spend on judge calls in USD, from the configured prices.",
		}, []string{"judge", "model"}),
		circuitOpen: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "evalsidecar_judge_circuit_open",
			Help: "1 while the judge's circuit breaker is open or half-open, else 0.",
		}, []string{"judge"}),
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "evalsidecar_judge_in_flight",
			Help: "Judge calls holding a concurrency slot.",
		}, []string{"judge"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_judge_retries_total",
			Help: "Judge retries, by the failure class that caused them.",
		}, []string{"judge", "model", "class"}),
	}
	return m, telemetry.Register(reg, "judge",
		m.requests, m.duration, m.tokens, m.cost, m.circuitOpen, m.inFlight, m.retries)
}

// clientMetrics are one client's series.
type clientMetrics struct {
	requests                  *prometheus.CounterVec // by outcome
	ok                        prometheus.Counter
	duration                  prometheus.Observer
	inputTokens, outputTokens prometheus.Counter
	cost                      prometheus.Counter
	circuitOpen               prometheus.Gauge
	inFlight                  prometheus.Gauge
	retries                   *prometheus.CounterVec // by class
}

// forClient returns the series of the judge named judge using model,
// created at zero so that they are exported before the first call. On a
// nil *Metrics they are registered nowhere.
func (m *Metrics) forClient(judge, model string) *clientMetrics {
	if m == nil {
		m, _ = NewMetrics(nil)
	}
	jm := prometheus.Labels{"judge": judge, "model": model}
	cm := &clientMetrics{
		requests:     m.requests.MustCurryWith(jm),
		duration:     m.duration.With(jm),
		inputTokens:  m.tokens.WithLabelValues(judge, model, "input"),
		outputTokens: m.tokens.WithLabelValues(judge, model, "output"),
		cost:         m.cost.With(jm),
		circuitOpen:  m.circuitOpen.WithLabelValues(judge),
		inFlight:     m.inFlight.WithLabelValues(judge),
		retries:      m.retries.MustCurryWith(jm),
	}
	cm.ok = cm.requests.WithLabelValues(OutcomeOK)
	return cm
}

// attempt records one attempt's outcome and duration.
func (cm *clientMetrics) attempt(class Class, d time.Duration) {
	if class == "" {
		cm.ok.Inc()
	} else {
		cm.requests.WithLabelValues(string(class)).Inc()
	}
	cm.duration.Observe(d.Seconds())
}

// refused records a call refused without an attempt (open circuit,
// budget).
func (cm *clientMetrics) refused(class Class) {
	cm.requests.WithLabelValues(string(class)).Inc()
}

// usage records a successful attempt's tokens and cost.
func (cm *clientMetrics) usage(in, out int64, usd float64) {
	cm.inputTokens.Add(float64(max(in, 0)))
	cm.outputTokens.Add(float64(max(out, 0)))
	cm.cost.Add(max(usd, 0))
}

// circuit records the breaker's state.
func (cm *clientMetrics) circuit(s CircuitState) {
	cm.circuitOpen.Set(float64(min(s, 1))) // 1 while open or half-open
}
