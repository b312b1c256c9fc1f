package jsonl

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
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

// streamNames are the streams in the order of the exporter's streams,
// which the stream indexes below name.
var streamNames = [...]string{streamTrajectories, streamScores, streamDecisions, streamSessions, streamFeedback}

const (
	iTrajectories = iota
	iScores
	iDecisions
	iSessions
	iFeedback
)

type metrics struct {
	sent    [len(streamNames)]prometheus.Counter // by stream index
	deleted *prometheus.CounterVec               // stream
	// queueLength is the queue size gauge.
	queueLength prometheus.Collector
}

// newMetrics counts written lines as records sent; drops are counted in
// evalsidecar_dropped_total by reason.
func newMetrics(reg prometheus.Registerer, queueLen func() float64, queueCap int) (*metrics, error) {
	records, shared := exporter.QueueMetrics(dropStage, queueLen, queueCap)
	m := &metrics{deleted: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: MetricDeleted, Help: HelpDeleted, ConstLabels: prometheus.Labels{"exporter": dropStage},
	}, []string{"stream"}), queueLength: shared[1]}
	for i, name := range streamNames {
		m.sent[i] = records.WithLabelValues(name, exporter.OutcomeSent)
	}
	return m, telemetry.Register(reg, dropStage+" exporter", append(shared, m.deleted)...)
}
