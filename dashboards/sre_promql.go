package dashboards

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/exporter"
	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
	"github.com/evalsidecar/evalsidecar/scorer/judge/calibration"
)

// Metric names the SRE rules and dashboard read. Those of the Prometheus
// exporter come from its constants, so a rename breaks the build.
const (
	mTrajectories       = promexp.MetricTrajectories
	mTrajectoryDuration = promexp.MetricTrajectoryDuration
	mToolCalls          = promexp.MetricToolCalls
	mToolCallDuration   = promexp.MetricToolCallDuration
	mLLMTokens          = promexp.MetricLLMTokens
	mEvalScoreRatio     = promexp.MetricEvalScoreRatio
	mEvalScored         = promexp.MetricEvalScored
	mEvalPassed         = promexp.MetricEvalPassed
	mLabelOverflow      = promexp.MetricLabelOverflow
	mSeriesOverflow     = promexp.MetricSeriesOverflow

	mReceiverRequests     = "evalsidecar_receiver_requests_total"
	mReceiverSpans        = "evalsidecar_receiver_spans_total"
	mReceiverLogRecords   = "evalsidecar_receiver_log_records_total"
	mReceiverRefusedSpans = "evalsidecar_receiver_refused_spans_total"
	mReceiverRefusedLogs  = "evalsidecar_receiver_refused_log_records_total"
	mForwardRequests      = "evalsidecar_forward_requests_total"
	mLiveTraces           = "evalsidecar_assembler_live_traces"
	mAssemblerTraces      = "evalsidecar_assembler_traces_total"
	mPartialTraces        = "evalsidecar_assembler_partial_traces_total"
	mDropped              = "evalsidecar_dropped_total"
	mScorerQueue          = "evalsidecar_scorer_queue_length"
	mScorerEvaluations    = "evalsidecar_scorer_evaluations_total"
	mScorerDuration       = "evalsidecar_scorer_duration_seconds"
	mEvalErrors           = "evalsidecar_eval_errors_total"
	mEvalNotApplicable    = "evalsidecar_eval_not_applicable_total"
	mExporterQueue        = exporter.MetricQueueSize     // exporter
	mExporterQueueCap     = exporter.MetricQueueCapacity // exporter
	mExporterRecords      = exporter.MetricRecords       // exporter, stream, outcome
	mBuildInfo            = "evalsidecar_build_info"

	// The LLM judge's metrics (scorer/judge, scorer/judge/stage,
	// scorer/judge/redact, exporter/otelevents). The rules and panels over them
	// stay quiet and empty until a judge is configured.
	mJudgeRequests     = "evalsidecar_judge_requests_total"           // judge, model, outcome=ok or a failure class; one per attempt
	mJudgeLatency      = "evalsidecar_judge_request_duration_seconds" // judge, model (histogram)
	mJudgeTokens       = "evalsidecar_judge_tokens_total"             // judge, model, type=input|output
	mJudgeCost         = "evalsidecar_judge_cost_usd_total"           // judge, model
	mJudgeCircuitOpen  = "evalsidecar_judge_circuit_open"             // judge; 1 while the breaker is open or half-open
	mJudgeInFlight     = "evalsidecar_judge_in_flight"                // judge
	mJudgeRetries      = "evalsidecar_judge_retries_total"            // judge, model, class
	mJudgeQueue        = "evalsidecar_judge_queue_length"             // judge; runs waiting for the judge
	mEvalSkipped       = "evalsidecar_eval_skipped_total"             // metric, reason (ledger outcomes that leave a run unjudged)
	mJudgeRedactions   = "evalsidecar_judge_redactions_total"         // type
	mOtelEventsRecords = "evalsidecar_otelevents_records_total"       // outcome=exported|failed|dropped
	// Agreement with people (scorer/judge/calibration).
	mJudgeAgreement      = calibration.MetricAgreement // metric, statistic=kappa|spearman|mae
	mJudgeAgreementFloor = calibration.MetricFloor     // metric, statistic

	// The ClickHouse exporter's own metrics (exporter="clickhouse").
	mExporterSpoolBytes    = chexp.MetricSpoolBytes    // exporter; bytes waiting in the spool
	mExporterSpoolCap      = chexp.MetricSpoolCapacity // exporter; spool.max_bytes
	mExporterParked        = chexp.MetricParked        // exporter, table
	mExporterBatchDuration = chexp.MetricBatchDuration // exporter, table, result (histogram)
)

// Judge outcomes and skip reasons the rules and panels select.
const (
	// judgeNotFailures are the evalsidecar_judge_requests_total outcomes
	// that say nothing about the judge's health: the attempt succeeded,
	// a budget refused the call, or the caller gave up.
	judgeNotFailures = "ok|over_budget|canceled"
	// judgeNotAttempts are the outcomes of calls never sent that say
	// nothing about the judge; calls refused by an open circuit count as
	// failed attempts.
	judgeNotAttempts = "over_budget|canceled"
	// skipOverBudget and skipQueueFull are evalsidecar_eval_skipped_total
	// reasons: a judge or metric budget refused the call, and the judge's
	// queue was full.
	skipOverBudget = "over_budget"
	skipQueueFull  = "queue_full"
	// judgeErrorsMinAttempts is the number of attempts in the rate window
	// below which EvalSidecarJudgeErrorsHigh stays quiet: two failures of
	// a nearly idle judge are not an outage.
	judgeErrorsMinAttempts = 10
	// judgeErrorsRatio is the failing share of attempts that fires
	// EvalSidecarJudgeErrorsHigh.
	judgeErrorsRatio = 0.25
)

// Exporter health thresholds.
const (
	// exporterRetryRatio is the share of write attempts retried above
	// which EvalSidecarExporterRetrying fires.
	exporterRetryRatio = 0.1
	// exporterFillRatio is the fill of an exporter's queue or spool above
	// which EvalSidecarExporterStorageFilling fires.
	exporterFillRatio = 0.8
	// exporterStages are the evalsidecar_dropped_total stages of the
	// exporters that write in the background.
	exporterStages = "jsonl|clickhouse|otelevents"
)

// Drop reasons the rules treat specially.
const (
	// benignDropReasons are drops that lose nothing: duplicate spans from
	// client retries and attribute values cut to the size limit.
	benignDropReasons = "duplicate_span|attribute_truncated"
)

// zScore is the PromQL of the one-sided two-proportion z statistic of a
// rise from the baseline failure proportion bx/bn to the recent one
// rx/rn, with the pooled proportion in the standard error. Operands are
// vector selectors with identical label sets. The result is NaN when both
// windows are all-pass or all-fail, so no alert fires on it.
func zScore(rx, rn, bx, bn string) string {
	pooled := fmt.Sprintf("((%s + %s) / (%s + %s))", rx, bx, rn, bn)
	return fmt.Sprintf("(%s / %s - %s / %s)\n/\nsqrt(%s * (1 - %s) * (1 / %s + 1 / %s))",
		rx, rn, bx, bn, pooled, pooled, rn, bn)
}

// recordName is a recording rule name, level:metric:operation.
func recordName(level, metric, op string) string { return level + ":" + metric + ":" + op }
