package exporter

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Self-metrics shared by the exporters that write in the background (JSON
// lines, ClickHouse), named after the OpenTelemetry Collector's
// exporterhelper metrics (otelcol_exporter_queue_size,
// otelcol_exporter_queue_capacity) with the exporter as a label. Every
// exporter registers them with the same help text, or registration fails.
const (
	MetricRecords = "evalsidecar_exporter_records_total"
	HelpRecords   = "Records handled by an exporter, by stream (file or table) and outcome: sent (the destination has them), retried (an attempt failed and is repeated), parked (held because the destination refused them for their schema) or dropped (lost; evalsidecar_dropped_total has the reason)."

	MetricQueueSize = "evalsidecar_exporter_queue_size"
	HelpQueueSize   = "Items accepted by an exporter and not yet sent, in the unit of its sending_queue.queue_size (JSON lines: batches; ClickHouse: rows, spooled ones included)."

	MetricQueueCapacity = "evalsidecar_exporter_queue_capacity"
	HelpQueueCapacity   = "Items an exporter holds at most before it drops (sending_queue.queue_size)."
)

// Outcomes of evalsidecar_exporter_records_total.
const (
	OutcomeSent    = "sent"
	OutcomeRetried = "retried"
	OutcomeParked  = "parked"
	OutcomeDropped = "dropped"
)

// QueueMetrics builds the shared self-metrics of exporter name. It returns
// the MetricRecords vector (by stream and outcome) and the collectors to
// register: that vector, MetricQueueSize read from queueSize and
// MetricQueueCapacity set to capacity.
func QueueMetrics(name string, queueSize func() float64, capacity int) (*prometheus.CounterVec, []prometheus.Collector) {
	exp := prometheus.Labels{"exporter": name}
	records := prometheus.NewCounterVec(prometheus.CounterOpts{Name: MetricRecords, Help: HelpRecords, ConstLabels: exp},
		[]string{"stream", "outcome"})
	size := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricQueueSize, Help: HelpQueueSize, ConstLabels: exp}, queueSize)
	capGauge := prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricQueueCapacity, Help: HelpQueueCapacity, ConstLabels: exp})
	capGauge.Set(float64(capacity))
	return records, []prometheus.Collector{records, size, capGauge}
}
