package jsonl

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names and help texts. Other exporters that report the same
// metrics must use the same help text, or registration fails.
const (
	MetricRecords     = "evalsidecar_exporter_records_total"
	HelpRecords       = "Records written by an exporter, by stream."
	MetricQueueLength = "evalsidecar_exporter_queue_length"
	HelpQueueLength   = "Items waiting in an exporter's queue."
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
)

type metrics struct {
	trajectories prometheus.Counter
	scores       prometheus.Counter
	decisions    prometheus.Counter
	sessions     prometheus.Counter
	queueLength  prometheus.GaugeFunc
}

func newMetrics(reg prometheus.Registerer, queueLen func() float64) (*metrics, error) {
	exp := prometheus.Labels{"exporter": dropStage}
	records := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name:        MetricRecords,
		Help:        HelpRecords,
		ConstLabels: exp,
	}, []string{"stream"})
	m := &metrics{
		trajectories: records.WithLabelValues(streamTrajectories),
		scores:       records.WithLabelValues(streamScores),
		decisions:    records.WithLabelValues(streamDecisions),
		sessions:     records.WithLabelValues(streamSessions),
		queueLength: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        MetricQueueLength,
			Help:        HelpQueueLength,
			ConstLabels: exp,
		}, queueLen),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{records, m.queueLength} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("jsonl exporter: register metrics: %w", err)
		}
	}
	return m, nil
}
