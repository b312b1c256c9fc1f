package receiver

import (
	"strings"
	"unicode"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc/codes"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Label values.
const (
	protoGRPC = "grpc"
	protoHTTP = "http"

	signalTraces = "traces"
	signalLogs   = "logs"
)

// Refusal reasons, used as the reason label and in partial-success messages.
const (
	reasonInvalidTraceID   = "invalid_trace_id"
	reasonInvalidSpanID    = "invalid_span_id"
	reasonInvalidUTF8      = "invalid_utf8"
	reasonAttributeDepth   = "attribute_depth"
	reasonOverloaded       = "overloaded"
	reasonShuttingDown     = "shutting_down"
	reasonMemoryLimit      = "memory_limit"
	reasonUnauthenticated  = "unauthenticated"
	reasonTooLarge         = "too_large"
	reasonUndecodable      = "undecodable"
	reasonUnsupportedMedia = "unsupported_media_type"
	reasonConsumerError    = "consumer_error"
	reasonInternal         = "internal"
)

// metrics are the receiver's own Prometheus series.
type metrics struct {
	requests       *prometheus.CounterVec // protocol, signal, code
	spans          *prometheus.CounterVec // protocol
	logRecords     *prometheus.CounterVec // protocol
	refusedSpans   *prometheus.CounterVec // protocol, reason
	refusedRecords *prometheus.CounterVec // protocol, reason
	forward        *prometheus.CounterVec // outcome
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	}
	m := &metrics{
		requests: counter("evalsidecar_receiver_requests_total",
			"OTLP export requests answered, by protocol, signal and response code: the lower-case gRPC status name (ok, invalid_argument, resource_exhausted, unauthenticated, unavailable, ...) for both protocols.",
			"protocol", "signal", "code"),
		spans:      counter("evalsidecar_receiver_spans_total", "Spans accepted and handed to the pipeline.", "protocol"),
		logRecords: counter("evalsidecar_receiver_log_records_total", "Log records accepted and handed to the pipeline.", "protocol"),
		refusedSpans: counter("evalsidecar_receiver_refused_spans_total",
			"Spans refused, by reason. A request refused before its spans could be counted (auth, size, decoding) counts as one.",
			"protocol", "reason"),
		refusedRecords: counter("evalsidecar_receiver_refused_log_records_total",
			"Log records refused, by reason. A request refused before its records could be counted (auth, size, decoding) counts as one.",
			"protocol", "reason"),
		forward: counter("evalsidecar_forward_requests_total",
			"Accepted requests forwarded upstream, by outcome: ok, error (upstream failed) or dropped (forward queue full or shut down).",
			"outcome"),
	}
	return m, telemetry.Register(reg, "receiver", m.requests, m.spans, m.logRecords, m.refusedSpans, m.refusedRecords, m.forward)
}

// refused counts n refused items of signal; n <= 0 means the count is
// unknown and the request counts as one.
func (m *metrics) refused(protocol, signal, reason string, n int) {
	if n <= 0 {
		n = 1
	}
	vec := m.refusedSpans
	if signal == signalLogs {
		vec = m.refusedRecords
	}
	vec.WithLabelValues(protocol, reason).Add(float64(n))
}

// accepted counts n items handed to the consumer.
func (m *metrics) accepted(protocol, signal string, n int) {
	if n <= 0 {
		return
	}
	vec := m.spans
	if signal == signalLogs {
		vec = m.logRecords
	}
	vec.WithLabelValues(protocol).Add(float64(n))
}

// codeLabel is the code label value of an answer: the snake_case name of
// its gRPC status code ("invalid_argument"), for both protocols (an HTTP
// answer's status maps from that code as the OTLP specification asks), so
// one query covers gRPC and HTTP clients.
func codeLabel(c codes.Code) string {
	switch {
	case c == codes.OK:
		return "ok"
	case c > codes.Unauthenticated:
		return "unknown"
	}
	var b strings.Builder
	for i, r := range c.String() {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
