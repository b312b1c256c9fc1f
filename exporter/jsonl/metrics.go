package jsonl

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter"
)

// Metric name and help text of the retention counter.
const (
	MetricDeleted = "evalsidecar_exporter_deleted_bytes_total"
	HelpDeleted   = "Bytes of rotated output files an exporter deleted by its retention, by stream."
)

// Drop stage and reasons counted in evalsidecar_dropped_total. Every drop is
// counted in records (lines): one per trajectory and one per score.
const (
	dropStage           = "jsonl"
	dropQueueFull       = "queue_full"
	dropWriteError      = "write_error"
	dropEncodeError     = "encode_error"
	dropShuttingDown    = "shutting_down"
	dropShutdownTimeout = "shutdown_timeout"
	dropNotStarted      = "not_started"
)

// Stream names: the file base names and the stream label values.
const (
	streamTrajectories = "trajectories"
	streamScores       = "scores"
	streamDecisions    = "decisions"
	streamSessions     = "sessions"
	streamFeedback     = "feedback"
)

type metrics struct {
	trajectories prometheus.Counter
	scores       prometheus.Counter
	decisions    prometheus.Counter
	sessions     prometheus.Counter
	feedback     prometheus.Counter
	queueLength  prometheus.GaugeFunc
	deleted      *prometheus.CounterVec // stream
}

// newMetrics counts written lines as records sent; drops are counted in
// evalsidecar_dropped_total by reason.
func newMetrics(reg prometheus.Registerer, queueLen func() float64, queueCap int) (*metrics, error) {
	exp := prometheus.Labels{"exporter": dropStage}
	records := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name:        exporter.MetricRecords,
		Help:        exporter.HelpRecords,
		ConstLabels: exp,
	}, []string{"stream", "outcome"})
	m := &metrics{
		trajectories: records.WithLabelValues(streamTrajectories, exporter.OutcomeSent),
		scores:       records.WithLabelValues(streamScores, exporter.OutcomeSent),
		decisions:    records.WithLabelValues(streamDecisions, exporter.OutcomeSent),
		sessions:     records.WithLabelValues(streamSessions, exporter.OutcomeSent),
		feedback:     records.WithLabelValues(streamFeedback, exporter.OutcomeSent),
		queueLength: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        exporter.MetricQueueSize,
			Help:        exporter.HelpQueueSize,
			ConstLabels: exp,
		}, queueLen),
		deleted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name:        MetricDeleted,
			Help:        HelpDeleted,
			ConstLabels: exp,
		}, []string{"stream"}),
	}
	capacity := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        exporter.MetricQueueCapacity,
		Help:        exporter.HelpQueueCapacity,
		ConstLabels: exp,
	})
	capacity.Set(float64(queueCap))
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{records, m.queueLength, capacity, m.deleted} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("jsonl exporter: register metrics: %w", err)
		}
	}
	return m, nil
}
