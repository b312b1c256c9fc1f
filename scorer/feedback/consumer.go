package feedback

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Metric names of the consumer's counters.
const (
	MetricReceived = "evalsidecar_feedback_received_total"
	MetricRejected = "evalsidecar_feedback_rejected_total"
)

// Consumer takes the feedback records of OTLP log requests and hands them
// to a sink (the exporter fan-out) as one feedback evaluation per
// request; it ignores other log records.
type Consumer struct {
	sink     scorer.Sink
	logger   *slog.Logger
	received prometheus.Counter
	rejected *prometheus.CounterVec
	now      func() time.Time
}

// New returns a consumer that exports feedback to sink.
func New(set telemetry.Settings, sink scorer.Sink) (*Consumer, error) {
	c := &Consumer{
		sink:   sink,
		logger: set.Log(),
		now:    time.Now,
		received: prometheus.NewCounter(prometheus.CounterOpts{Name: MetricReceived,
			Help: "Feedback records (people's judgements of runs) accepted from OTLP log events."}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricRejected,
			Help: "Feedback records rejected as malformed, by reason."}, []string{"reason"}),
	}
	for _, r := range []string{ReasonNoTraceID, ReasonNoMetric, ReasonInvalidMetric, ReasonNoValue, ReasonInvalidValue, ReasonInvalidLabel} {
		c.rejected.WithLabelValues(r)
	}
	if err := telemetry.Register(set.Registerer, "feedback", c.received, c.rejected); err != nil {
		return nil, err
	}
	return c, nil
}

// ConsumeLogs exports ld's feedback records and logs and counts the
// malformed ones. Feedback a sink cannot take is counted and logged by
// that sink (evalsidecar_dropped_total) and does not fail the request:
// the other sinks have it already.
func (c *Consumer) ConsumeLogs(ctx context.Context, ld plog.Logs) {
	fbs, rejected := Decode(ld, c.now())
	for _, r := range rejected {
		c.rejected.WithLabelValues(r.Reason).Inc()
		c.logger.Warn("feedback record rejected", "reason", r.Reason, "trace_id", r.TraceID, "metric", r.Metric)
	}
	if len(fbs) > 0 {
		c.received.Add(float64(len(fbs)))
		if err := c.sink.Export(ctx, &scorer.Evaluation{Feedback: fbs}); err != nil {
			c.logger.Warn("feedback not stored by every exporter", "records", len(fbs), "err", err)
		}
	}
}
