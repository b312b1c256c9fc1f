package clickhouse

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names of the ClickHouse exporter. They carry the constant label
// exporter="clickhouse" so that other exporters can report the same names.
const (
	MetricRows          = "evalsidecar_exporter_rows_total"
	HelpRows            = "Rows handled by a database exporter, by table and outcome (inserted, retried, parked, dropped)."
	MetricBatchDuration = "evalsidecar_exporter_batch_duration_seconds"
	HelpBatchDuration   = "Duration of one batch insert attempt, by table and result."
	MetricSpoolBytes    = "evalsidecar_exporter_spool_bytes"
	HelpSpoolBytes      = "Bytes of sealed batches waiting in an exporter's spool."
	MetricQueueRows     = "evalsidecar_exporter_queue_rows"
	HelpQueueRows       = "Rows accepted by an exporter and not yet written to the database."
	MetricParked        = "evalsidecar_exporter_parked_batches"
	HelpParked          = "Batches an exporter holds because the database refused them for their schema."
)

// Outcomes of evalsidecar_exporter_rows_total.
const (
	OutcomeInserted = "inserted"
	OutcomeRetried  = "retried"
	OutcomeParked   = "parked"
	OutcomeDropped  = "dropped"
)

type metrics struct {
	rows     *prometheus.CounterVec
	duration *prometheus.HistogramVec
	parked   *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer, spoolBytes, queueRows func() float64) (*metrics, error) {
	exp := prometheus.Labels{"exporter": dropStage}
	m := &metrics{
		rows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricRows, Help: HelpRows, ConstLabels: exp,
		}, []string{"table", "outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: MetricBatchDuration, Help: HelpBatchDuration, ConstLabels: exp,
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"table", "result"}),
		parked: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: MetricParked, Help: HelpParked, ConstLabels: exp,
		}, []string{"table"}),
	}
	spool := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricSpoolBytes, Help: HelpSpoolBytes, ConstLabels: exp}, spoolBytes)
	queue := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: MetricQueueRows, Help: HelpQueueRows, ConstLabels: exp}, queueRows)
	// Pre-create the series dashboards and alerts read, so they exist at 0.
	for t := range numTables {
		for _, o := range []string{OutcomeInserted, OutcomeRetried, OutcomeParked, OutcomeDropped} {
			m.rows.WithLabelValues(t.String(), o)
		}
		m.parked.WithLabelValues(t.String())
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.rows, m.duration, m.parked, spool, queue} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("clickhouse exporter: register metrics: %w", err)
		}
	}
	return m, nil
}
