package otelevents

import (
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
)

// Metric names and help texts.
const (
	MetricRecords     = "evalsidecar_otelevents_records_total"
	HelpRecords       = "gen_ai.evaluation.result records, by outcome: exported, failed (the export request failed) or dropped (never sent)."
	MetricQueueLength = "evalsidecar_otelevents_queue_length"
	HelpQueueLength   = "gen_ai.evaluation.result records accepted and not yet exported."
)

// Outcomes of a record, the outcome label values.
const (
	outcomeExported = "exported"
	outcomeFailed   = "failed"
	outcomeDropped  = "dropped"
)

// Drop stage and reasons counted in evalsidecar_dropped_total, one per
// record.
const (
	dropStage           = "otelevents"
	dropQueueFull       = "queue_full"
	dropExportError     = "export_error"
	dropShuttingDown    = "shutting_down"
	dropShutdownTimeout = "shutdown_timeout"
	dropNotStarted      = "not_started"
)

type metrics struct {
	exported, failed, dropped prometheus.Counter
	queueLength               prometheus.GaugeFunc
}

func newMetrics(reg prometheus.Registerer, queueLen func() float64) (*metrics, error) {
	records := prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricRecords, Help: HelpRecords}, []string{"outcome"})
	m := &metrics{
		exported:    records.WithLabelValues(outcomeExported),
		failed:      records.WithLabelValues(outcomeFailed),
		dropped:     records.WithLabelValues(outcomeDropped),
		queueLength: prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricQueueLength, Help: HelpQueueLength}, queueLen),
	}
	return m, telemetry.Register(reg, dropStage+" exporter", records, m.queueLength)
}
