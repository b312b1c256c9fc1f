package session

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Self-metric names.
const (
	MetricOpen        = "evalsidecar_sessions_open"
	MetricBytes       = "evalsidecar_sessions_buffered_bytes"
	MetricClosed      = "evalsidecar_sessions_closed_total"
	MetricStoreErrors = "evalsidecar_sessions_store_errors_total"
	MetricLateTurns   = "evalsidecar_sessions_late_turns_total"
)

type metrics struct {
	closed      *prometheus.CounterVec
	storeErrors prometheus.Counter
	lateTurns   prometheus.Counter
}

func newMetrics(reg prometheus.Registerer, stats func() (int, int64)) (*metrics, error) {
	m := &metrics{closed: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: MetricClosed,
		Help: "Sessions closed and scored, by reason (idle, max_age, evicted, shutdown).",
	}, []string{"reason"}),
		storeErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: MetricStoreErrors,
			Help: "Failed reads of idle sessions from the shared store (sessions.source clickhouse); retried at the next poll.",
		}),
		lateTurns: prometheus.NewCounter(prometheus.CounterOpts{
			Name: MetricLateTurns,
			Help: "Turns that arrived after their session was scored; the session is scored again as its next revision.",
		})}
	return m, telemetry.Register(reg, "sessions", m.closed, m.storeErrors, m.lateTurns,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricOpen, Help: "Sessions open (waiting for more turns)."},
			func() float64 { n, _ := stats(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricBytes, Help: "Estimated memory of the open sessions."},
			func() float64 { _, b := stats(); return float64(b) }))
}
