package prometheus

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Metric names this package exports.
const (
	MetricTrajectories       = "evalsidecar_trajectories_total"
	MetricTrajectoryDuration = "evalsidecar_trajectory_duration_seconds"
	MetricToolCalls          = "evalsidecar_tool_calls_total"
	MetricToolCallDuration   = "evalsidecar_tool_call_duration_seconds"
	MetricLLMTokens          = "evalsidecar_llm_tokens_total"
	MetricEvalScore          = "evalsidecar_eval_score"
	MetricSessions           = "evalsidecar_sessions_total"
	MetricLabelOverflow      = "evalsidecar_exporter_label_overflow_total"
	MetricInvalidScores      = "evalsidecar_exporter_invalid_scores_total"
)

// ExemplarTraceIDLabel is the exemplar label that carries the trace id.
const ExemplarTraceIDLabel = "trace_id"

// Label names and fixed label values.
const (
	labelService = "service"
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
	// EvalScoreBuckets resolve 0–1 scores in tenths and 1–5 scores in
	// halves; 10 and 100 catch unbounded metrics such as latency and
	// tool-call counts.
	EvalScoreBuckets = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 10, 100}
)

type metrics struct {
	trajectories       *prometheus.CounterVec
	trajectoryDuration *prometheus.HistogramVec
	toolCalls          *prometheus.CounterVec
	toolCallDuration   *prometheus.HistogramVec
	llmTokens          *prometheus.CounterVec
	evalScore          *prometheus.HistogramVec
	sessions           *prometheus.CounterVec
	labelOverflow      *prometheus.CounterVec
	invalidScores      prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		trajectories: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricTrajectories,
			Help: "Agent runs evaluated, by outcome (ok or failed).",
		}, []string{labelService, labelServiceVersion, labelAgent, "outcome"}),
		trajectoryDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricTrajectoryDuration,
			Help:    "Wall-clock duration of agent runs.",
			Buckets: TrajectoryDurationBuckets,
		}, []string{labelService, labelServiceVersion, labelAgent}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricToolCalls,
			Help: "Tool calls made by agent runs, by outcome (ok or error).",
		}, []string{labelService, labelAgent, labelTool, "outcome"}),
		toolCallDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricToolCallDuration,
			Help:    "Duration of tool calls.",
			Buckets: ToolCallDurationBuckets,
		}, []string{labelService, labelAgent, labelTool}),
		llmTokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricLLMTokens,
			Help: "Model tokens used by agent runs, by type (input or output).",
		}, []string{labelService, labelAgent, labelModel, "type"}),
		evalScore: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    MetricEvalScore,
			Help:    "Evaluation scores by metric id; exemplars carry the trace_id of the scored run.",
			Buckets: EvalScoreBuckets,
		}, []string{labelService, labelServiceVersion, labelAgent, labelMetric}),
		sessions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricSessions,
			Help: "Conversations closed and scored, by outcome (failed when any turn failed, else ok).",
		}, []string{labelService, labelAgent, "outcome"}),
		labelOverflow: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: MetricLabelOverflow,
			Help: "Label values replaced by \"other\" because the label reached max_label_values distinct values.",
		}, []string{"label"}),
		invalidScores: prometheus.NewCounter(prometheus.CounterOpts{
			Name:        MetricInvalidScores,
			Help:        "Scores not exported because they were NaN or infinite.",
			ConstLabels: prometheus.Labels{exporterLabel: exporterName},
		}),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{
		m.trajectories, m.trajectoryDuration, m.toolCalls, m.toolCallDuration,
		m.llmTokens, m.evalScore, m.sessions, m.labelOverflow, m.invalidScores,
	} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("prometheus exporter: register metrics: %w", err)
		}
	}
	return m, nil
}

// maxExemplarTraceIDBytes bounds the exemplar value: trace ids are 32 hex
// digits, and the client library rejects exemplars over 128 runes.
const maxExemplarTraceIDBytes = 64
