package clickhouse

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// Metric names of the ClickHouse exporter besides the exporters' shared
// ones (exporter.MetricRecords, with the table as stream,
// exporter.MetricQueueSize and exporter.MetricQueueCapacity). They carry
// the constant label exporter="clickhouse".
const (
	MetricBatchDuration = "evalsidecar_exporter_batch_duration_seconds"
	HelpBatchDuration   = "Duration of one batch insert attempt, by table and result."
	MetricSpoolBytes    = "evalsidecar_exporter_spool_bytes"
	HelpSpoolBytes      = "Bytes of sealed batches waiting in an exporter's spool."
	MetricSpoolCapacity = "evalsidecar_exporter_spool_capacity_bytes"
	HelpSpoolCapacity   = "Bytes an exporter's spool holds at most before it drops (spool.max_bytes)."
	MetricParked        = "evalsidecar_exporter_parked_batches"
	HelpParked          = "Batches an exporter holds because the database refused them for their schema."
)

type metrics struct {
	rows     *prometheus.CounterVec
	duration *prometheus.HistogramVec
	parked   *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer, cfg Config, spoolBytes, queueRows func() float64) (*metrics, error) {
	exp := prometheus.Labels{"exporter": dropStage}
	records, shared := exporter.QueueMetrics(dropStage, queueRows, cfg.SendingQueue.QueueSize)
	m := &metrics{
		rows: records,
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: MetricBatchDuration, Help: HelpBatchDuration, ConstLabels: exp,
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"table", "result"}),
		parked: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: MetricParked, Help: HelpParked, ConstLabels: exp,
		}, []string{"table"}),
	}
	spool := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricSpoolBytes, Help: HelpSpoolBytes, ConstLabels: exp}, spoolBytes)
	spoolCap := prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricSpoolCapacity, Help: HelpSpoolCapacity, ConstLabels: exp})
	spoolCap.Set(float64(cfg.Spool.MaxBytes))
	// Pre-create the series dashboards and alerts read, so they exist at 0.
	for t := range numTables {
		for _, o := range []string{exporter.OutcomeSent, exporter.OutcomeRetried, exporter.OutcomeParked, exporter.OutcomeDropped} {
			m.rows.WithLabelValues(t.String(), o)
		}
		m.parked.WithLabelValues(t.String())
	}
	return m, telemetry.Register(reg, dropStage+" exporter", append(shared, m.duration, m.parked, spool, spoolCap)...)
}
