package extractor

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Trace outcomes, the values of the outcome label of
// evalsidecar_assembler_traces_total.
const (
	OutcomeComplete = "complete" // root span ended and the quiet period passed
	OutcomeMaxAge   = "max_age"  // released at max_trace_age
	OutcomeEvicted  = "evicted"  // released early to make room after its root arrived, or flushed before its root arrived
	// OutcomeIncomplete: evicted to make room before its root arrived; not
	// scored (it would read as a failed run) and counted as dropped.
	OutcomeIncomplete = "incomplete"
	OutcomeTooLarge   = "too_large" // spans were dropped at max_spans_per_trace
	OutcomeNoGenAI    = "no_genai"  // no GenAI span: nothing to evaluate, dropped
)

// Drop reasons the assembler counts in evalsidecar_dropped_total.
const (
	dropStage          = "assembler"
	reasonDuplicate    = "duplicate_span"
	reasonSpansPer     = "spans_per_trace"
	reasonLate         = "late"
	reasonIncomplete   = "incomplete"
	reasonBufferFull   = "buffer_full"
	reasonTruncated    = "attribute_truncated"
	reasonInvalidID    = "invalid_id"
	reasonLogUnjoined  = "log_unjoined"
	reasonLogNoTraceID = "log_no_trace_id"
)

type metrics struct {
	live   prometheus.Gauge
	traces *prometheus.CounterVec
	late   prometheus.Counter
	// partial counts released traces that yield runs but miss spans,
	// by reason (PartialNoRoot, PartialMissingParent).
	partial *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		live: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "evalsidecar_assembler_live_traces",
			Help: "Traces buffered by the assembler, waiting to be complete.",
		}),
		traces: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_assembler_traces_total",
			Help: "Traces released by the assembler, by outcome.",
		}, []string{"outcome"}),
		late: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "evalsidecar_late_spans_total",
			Help: "Spans that arrived after their trace had been released; they are dropped.",
		}),
		partial: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "evalsidecar_assembler_partial_traces_total",
			Help: "Traces with agent runs released without some of their spans: no_root (no parentless span arrived) or missing_parent (a span's parent never arrived). Spans of one trace reaching different replicas show here.",
		}, []string{"reason"}),
	}
	for _, r := range []string{PartialNoRoot, PartialMissingParent} {
		m.partial.WithLabelValues(r)
	}
	for _, o := range [...]string{OutcomeComplete, OutcomeMaxAge, OutcomeEvicted, OutcomeIncomplete, OutcomeTooLarge, OutcomeNoGenAI} {
		m.traces.WithLabelValues(o)
	}
	if err := telemetry.Register(reg, "extractor", m.live, m.traces, m.late, m.partial); err != nil {
		return nil, err
	}
	return m, nil
}
