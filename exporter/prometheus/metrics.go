package prometheus

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Metric names this package exports.
const (
	MetricTrajectories       = "evalsidecar_trajectories_total"
	MetricTrajectoryDuration = "evalsidecar_trajectory_duration_seconds"
	MetricToolCalls          = "evalsidecar_tool_calls_total"
	MetricToolCallDuration   = "evalsidecar_tool_call_duration_seconds"
	MetricLLMTokens          = "evalsidecar_llm_tokens_total"
	MetricEvalScoreRatio     = "evalsidecar_eval_score_ratio"
	MetricEvalScoreSeconds   = "evalsidecar_eval_score_seconds"
	MetricEvalScoreCount     = "evalsidecar_eval_score_items"
	MetricEvalScoreRating    = "evalsidecar_eval_score_rating"
	MetricEvalScoreOther     = "evalsidecar_eval_score_other"
	MetricEvalScored         = "evalsidecar_eval_scored_total"
	MetricEvalPassed         = "evalsidecar_eval_passed_total"
	MetricSessions           = "evalsidecar_sessions_total"
	MetricLabelOverflow      = "evalsidecar_exporter_label_overflow_total"
	MetricInvalidScores      = "evalsidecar_exporter_invalid_scores_total"
	MetricSeriesOverflow     = "evalsidecar_exporter_series_overflow_total"
)

// ExemplarTraceIDLabel is the exemplar label that carries the trace id.
const ExemplarTraceIDLabel = "trace_id"

// Label names and fixed label values.
const (
	labelService = "service_name"
	// labelServiceVersion carries the run's service.version resource
	// attribute, so rules and dashboards can compare releases.
	labelServiceVersion = "service_version"
	labelAgent          = "agent"
	labelTool           = "tool"
	labelModel          = "model"
	labelMetric         = "metric"

	outcomeOK     = "ok"
	outcomeFailed = "failed"
	outcomeError  = "error"
	tokenInput    = "input"
	tokenOutput   = "output"

	exporterName  = "prometheus"
	exporterLabel = "exporter"
)

// Histogram buckets.
var (
	// TrajectoryDurationBuckets fit agent runs: 50 ms to 5 min.
	TrajectoryDurationBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300}
	// ToolCallDurationBuckets fit tool calls: 5 ms to 2 min.
	ToolCallDurationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}
	// ScoreRatioBuckets resolve 0–1 scores in tenths, with the top
	// percentiles apart.
	ScoreRatioBuckets = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1}
	// ScoreSecondsBuckets fit durations from 50 ms to 10 min.
	ScoreSecondsBuckets = []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600}
	// ScoreCountBuckets fit counts of tool calls, steps and turns.
	ScoreCountBuckets = []float64{0, 1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 50, 100}
	// ScoreRatingBuckets resolve rating scales (-2 to 2, 1 to 5, 1 to
	// 10) in halves up to 5 and in steps above.
	ScoreRatingBuckets = []float64{-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10}
	// ScoreOtherBuckets are powers of ten either side of 0, for scores
	// of no declared unit.
	ScoreOtherBuckets = []float64{-1000, -100, -10, -1, 0, 1, 10, 100, 1000}
)

// scoreFamily is the index of a unit's score histogram.
type scoreFamily uint8

const (
	familyRatio scoreFamily = iota
	familySeconds
	familyCount
	familyRating
	familyOther
	numFamilies
)

// familyOf returns the histogram family of a unit.
func familyOf(u scorer.Unit) scoreFamily {
	switch u {
	case scorer.UnitRatio:
		return familyRatio
	case scorer.UnitSeconds:
		return familySeconds
	case scorer.UnitCount:
		return familyCount
	case scorer.UnitRating:
		return familyRating
	}
	return familyOther
}

// runMetricLabels are the labels of the per-score series.
func runMetricLabels() []string {
	return []string{labelService, labelServiceVersion, labelAgent, labelMetric}
}

type metrics struct {
	trajectories       *prometheus.CounterVec
	trajectoryDuration *prometheus.HistogramVec
	toolCalls          *prometheus.CounterVec
	toolCallDuration   *prometheus.HistogramVec
	llmTokens          *prometheus.CounterVec
	evalScore          [numFamilies]*prometheus.HistogramVec
	evalScored         *prometheus.CounterVec
	evalPassed         *prometheus.CounterVec
	sessions           *prometheus.CounterVec
	labelOverflow      *prometheus.CounterVec
	seriesOverflow     *prometheus.CounterVec
	invalidScores      prometheus.Counter
}

func counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

func histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		trajectories: counterVec(MetricTrajectories, "Agent runs evaluated, by outcome (ok or failed).",
			labelService, labelServiceVersion, labelAgent, "outcome"),
		trajectoryDuration: histogramVec(MetricTrajectoryDuration, "Wall-clock duration of agent runs.", TrajectoryDurationBuckets,
			labelService, labelServiceVersion, labelAgent),
		toolCalls: counterVec(MetricToolCalls, "Tool calls made by agent runs, by outcome (ok or error).",
			labelService, labelAgent, labelTool, "outcome"),
		toolCallDuration: histogramVec(MetricToolCallDuration, "Duration of tool calls.", ToolCallDurationBuckets,
			labelService, labelAgent, labelTool),
		llmTokens: counterVec(MetricLLMTokens, "Model tokens used by agent runs, by type (input or output).",
			labelService, labelAgent, labelModel, "type"),
		evalScored: counterVec(MetricEvalScored,
			"Scores by metric id, every unit; with evalsidecar_eval_passed_total it gives the pass rate.", runMetricLabels()...),
		evalPassed: counterVec(MetricEvalPassed,
			"Scores that passed their metric's pass rule, by metric id; a metric has this series (from 0) once it has a score with a verdict, none without a pass rule.",
			runMetricLabels()...),
		sessions: counterVec(MetricSessions,
			"Conversations closed and scored, by outcome (failed when any turn failed, else ok).", labelService, labelAgent, "outcome"),
		labelOverflow: counterVec(MetricLabelOverflow,
			"Label values replaced by \"other\" because the label reached max_label_values distinct values.", "label"),
		seriesOverflow: counterVec(MetricSeriesOverflow,
			"Label combinations recorded in a metric family's \"other\" row because the family reached max_series series (counted as each is folded).",
			"family"),
		invalidScores: prometheus.NewCounter(prometheus.CounterOpts{
			Name:        MetricInvalidScores,
			Help:        "Scores not exported because they were NaN or infinite.",
			ConstLabels: prometheus.Labels{exporterLabel: exporterName},
		}),
	}
	// every family's overflow series exists from the start, at 0
	for v := range seriesEvalScore + vecID(numFamilies) {
		m.seriesOverflow.WithLabelValues(vecNames[v])
	}
	for f, h := range []struct {
		name, help string
		buckets    []float64
	}{
		familyRatio:   {MetricEvalScoreRatio, "Scores of metrics whose unit is a ratio (0 to 1), by metric id", ScoreRatioBuckets},
		familySeconds: {MetricEvalScoreSeconds, "Scores of metrics whose unit is seconds, by metric id", ScoreSecondsBuckets},
		familyCount:   {MetricEvalScoreCount, "Scores of metrics that count things (tool calls, steps), by metric id", ScoreCountBuckets},
		familyRating:  {MetricEvalScoreRating, "Scores of metrics rated on a scale (such as 1 to 5), by metric id", ScoreRatingBuckets},
		familyOther:   {MetricEvalScoreOther, "Scores of metrics with no declared unit, by metric id", ScoreOtherBuckets},
	} {
		m.evalScore[f] = histogramVec(h.name, h.help+"; exemplars carry the trace_id of the scored run.", h.buckets, runMetricLabels()...)
	}
	cs := []prometheus.Collector{
		m.trajectories, m.trajectoryDuration, m.toolCalls, m.toolCallDuration,
		m.llmTokens, m.evalScored, m.evalPassed, m.sessions, m.labelOverflow, m.seriesOverflow, m.invalidScores,
	}
	for _, h := range m.evalScore {
		cs = append(cs, h)
	}
	return m, telemetry.Register(reg, exporterName+" exporter", cs...)
}

// maxExemplarTraceIDBytes bounds the exemplar value: trace ids are 32 hex
// digits, and the client library rejects exemplars over 128 runes.
const maxExemplarTraceIDBytes = 64
