package dashboards

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// Recording rules the SRE dashboard reads (default RateWindow).
var (
	recRuns       = recordName(levelVersionAgentOutcome, "evalsidecar_trajectories", "rate5m")
	recDuration   = recordName(levelVersionAgentLe, mTrajectoryDuration+"_bucket", "rate5m")
	recScored     = recordName(levelVersionAgentMetric, "evalsidecar_eval_scored", "rate5m")
	recPassed     = recordName(levelVersionAgentMetric, "evalsidecar_eval_passed", "rate5m")
	recRatioSum   = recordName(levelVersionAgentMetric, mEvalScoreRatio+"_sum", "rate5m")
	recRatioCount = recordName(levelVersionAgentMetric, mEvalScoreRatio+"_count", "rate5m")
	recToolCalls  = recordName(levelAgentToolOutcome, "evalsidecar_tool_calls", "rate5m")
	recEvalZ      = recordName("service_agent_metric", "evalsidecar_eval_failed", "zscore1h")
	recRunZ       = recordName("service_agent", "evalsidecar_trajectories_failed", "zscore1h")
	recToolZ      = recordName("service_agent_tool", "evalsidecar_tool_calls_failed", "zscore1h")
	recLatencyP95 = recordName("service_agent", mTrajectoryDuration, "p95_1h")
)

func goldenSignalPanels() []cog.Builder[dashboard.Panel] {
	runs := func(m ...string) string { return recRuns + sel(append([]string{svcAgent}, m...)...) }
	quantile := func(q float64, by string) promQuery {
		return promQuery{
			expr:   fmt.Sprintf("histogram_quantile(%g, sum by (%s) (%s%s))", q, by, recDuration, sel(svcAgent)),
			legend: fmt.Sprintf("p%g", q*100),
		}
	}
	p95ByRelease := quantile(0.95, "le, service_version")
	p95ByRelease.legend = "p95 {{service_version}}"
	return []cog.Builder[dashboard.Panel]{
		timeseriesPanel("Runs per second by release", "Agent runs evaluated per second, by service.version.", unitPerSec,
			promQuery{expr: "sum by (service_version) (" + runs() + ")", legend: "{{service_version}}"}),
		timeseriesPanel("Run failure rate by release", "Share of runs that failed (error status, error.type or no final answer).", unitRatio,
			promQuery{expr: "sum by (service_version) (" + runs(`outcome="failed"`) + ")\n/\nsum by (service_version) (" + runs() + ")", legend: "{{service_version}}"}),
		timeseriesPanel("Run latency", "Run duration quantiles over all selected agents, and p95 by release.", unitSeconds,
			quantile(0.5, "le"), quantile(0.95, "le"), quantile(0.99, "le"), p95ByRelease),
		timeseriesPanel("Tool error rate by tool", "Share of tool calls that returned an error.", unitRatio,
			promQuery{
				expr:   "sum by (tool) (" + recToolCalls + sel(svcAgent, `outcome="error"`) + ")\n/\nsum by (tool) (" + recToolCalls + sel(svcAgent) + ")",
				legend: "{{tool}}",
			}),
		timeseriesPanel("Tool calls per second by tool", "Tool calls per second.", unitPerSec,
			promQuery{expr: "sum by (tool) (" + recToolCalls + sel(svcAgent) + ")", legend: "{{tool}}"}),
		timeseriesPanel("Regression significance (z)", "Two-proportion z score of the last hour against the six hours before; the regression alerts fire above 3.09 (with at least 100 samples and a 5-point rise).", "none",
			promQuery{expr: "max by (agent) (" + recRunZ + sel(svcAgent) + ")", legend: "runs failed {{agent}}"},
			promQuery{expr: "max by (metric) (" + recEvalZ + sel(svcAgent) + ")", legend: "{{metric}}"},
			promQuery{expr: "max by (tool) (" + recToolZ + sel(svcAgent) + ")", legend: "tool {{tool}}"}),
	}
}

func qualityPanels(o Options) []cog.Builder[dashboard.Panel] {
	return []cog.Builder[dashboard.Panel]{
		timeseriesPanel("Pass rate by metric and release", "Share of scores that pass their metric's pass rule (evalsidecar_eval_passed_total over evalsidecar_eval_scored_total), by metric and service.version; metrics without a pass rule have no pass rate.", unitRatio,
			promQuery{
				expr:   "sum by (metric, service_version) (" + recPassed + sel(svcAgent) + ")\n/\nsum by (metric, service_version) (" + recScored + sel(svcAgent) + ")",
				legend: "{{metric}} {{service_version}}",
			}).Min(0).Max(1),
		timeseriesPanel("Mean ratio score by metric and release", "Mean score per metric and service.version, for the metrics whose unit is a ratio (0 to 1); seconds, counts and ratings have their own histograms (evalsidecar_eval_score_seconds, _items, _rating).", unitRatio,
			promQuery{
				expr:   "sum by (metric, service_version) (" + recRatioSum + sel(svcAgent) + ")\n/\nsum by (metric, service_version) (" + recRatioCount + sel(svcAgent) + ")",
				legend: "{{metric}} {{service_version}}",
			}).Min(0).Max(1),
		timeseriesPanel("Ratio scores with trace exemplars", "Median score per ratio metric; the dots are exemplars carrying the trace_id of a scored run: click one to open the trace.", unitRatio,
			promQuery{
				expr:     "histogram_quantile(0.5, sum by (le, metric) (" + rateOf(mEvalScoreRatio+"_bucket", svcAgent) + "))",
				legend:   "{{metric}}",
				exemplar: true,
			}).DataLinks([]cog.Builder[dashboard.DashboardLink]{traceLink(o)}),
		timeseriesPanel("Run latency with trace exemplars", "p95 run latency; exemplars link the slow runs to their traces.", unitSeconds,
			promQuery{
				expr:     "histogram_quantile(0.95, sum by (le) (" + rateOf(mTrajectoryDuration+"_bucket", svcAgent) + "))",
				legend:   "p95",
				exemplar: true,
			}).DataLinks([]cog.Builder[dashboard.DashboardLink]{traceLink(o)}),
		timeseriesPanel("Latency p95 now vs baseline", "p95 run latency over the last hour (recording rule of the latency regression alert).", unitSeconds,
			promQuery{expr: "max by (agent) (" + recLatencyP95 + sel(svcAgent) + ")", legend: "{{agent}}"}),
		timeseriesPanel("Not applicable and failed evaluations", "Metric evaluations skipped as not applicable, and evaluations that ended in an error, by metric.", unitPerSec,
			promQuery{expr: "sum by (metric) (" + rateOf(mEvalNotApplicable, inst) + ")", legend: "n/a {{metric}}"},
			promQuery{expr: "sum by (metric, reason) (" + rateOf(mEvalErrors, inst) + ")", legend: "{{reason}} {{metric}}"}),
	}
}

// judgePanels are the LLM judge's health, spend and ledger: three rows,
// the last of narrower panels.
func judgePanels() []cog.Builder[dashboard.Panel] {
	jm := "{{judge}}/{{model}}"
	return []cog.Builder[dashboard.Panel]{
		timeseriesPanel("Judge requests by outcome", "Judge HTTP attempts per second by judge, model and outcome: ok or a failure class (rate_limited, quota_exhausted, overloaded, server_error, timeout, transport, auth, bad_request, refusal, content_filter, truncated, invalid_response), and calls refused without an attempt (circuit_open, over_budget, canceled).", unitPerSec,
			promQuery{expr: "sum by (judge, model, outcome) (" + rateOf(mJudgeRequests, inst) + ")", legend: jm + " {{outcome}}"}),
		timeseriesPanel("Judge latency p95", "95th percentile of judge attempt duration, failed attempts included.", unitSeconds,
			promQuery{expr: "histogram_quantile(0.95, sum by (le, judge, model) (" + rateOf(mJudgeLatency+"_bucket", inst) + "))", legend: jm}),
		timeseriesPanel("Judge skipped by metric and reason", "Judge metric evaluations not made per second, by metric and reason (sampled_out, filtered, over_budget, queue_full, judge_error, not_applicable, shutting_down), stacked. The ledger in decisions.jsonl and eval_decisions has the run ids.", unitPerSec,
			promQuery{expr: "sum by (metric, reason) (" + rateOf(mEvalSkipped, inst) + ")", legend: "{{metric}} {{reason}}"}).
			Stacking(common.NewStackingConfigBuilder().Mode(common.StackingModeNormal)),
		timeseriesPanel("Judge tokens per second", "Tokens sent to and received from each judge.", unitPerSec,
			promQuery{expr: "sum by (judge, model, type) (" + rateOf(mJudgeTokens, inst) + ")", legend: jm + " {{type}}"}),
		timeseriesPanel("Judge cost per hour", "Estimated judge spend in USD per hour, from the judges' configured prices.", "currencyUSD",
			promQuery{expr: "3600 * sum by (judge, model) (" + rateOf(mJudgeCost, inst) + ")", legend: jm}),
		timeseriesPanel("Judge budget skips", "Judge metric evaluations skipped per second because a judge or metric budget is spent (evalsidecar_eval_skipped_total{reason=\"over_budget\"}).", unitPerSec,
			promQuery{expr: "sum by (metric) (" + rateOf(mEvalSkipped, inst, `reason="`+skipOverBudget+`"`) + ")", legend: "{{metric}}"}),
		timeseriesPanel("Judge circuit open", "1 while the judge's circuit breaker is open or half-open.", "none",
			promQuery{expr: "max by (judge) (" + mJudgeCircuitOpen + sel(inst) + ")", legend: "{{judge}}"}).Span(6),
		timeseriesPanel("Judge queue and in flight", "Runs waiting for each judge, and calls holding one of its max_concurrency slots.", "none",
			promQuery{expr: "sum by (judge) (" + mJudgeQueue + sel(inst) + ")", legend: "queued {{judge}}"},
			promQuery{expr: "sum by (judge) (" + mJudgeInFlight + sel(inst) + ")", legend: "in flight {{judge}}"}).Span(6),
		timeseriesPanel("Judge retries by class", "Judge retries per second, by the failure class that caused them.", unitPerSec,
			promQuery{expr: "sum by (judge, class) (" + rateOf(mJudgeRetries, inst) + ")", legend: "{{judge}} {{class}}"}).Span(6),
		timeseriesPanel("Judge redactions by type", "Values replaced before a judge request left the process, per second, by detector type.", unitPerSec,
			promQuery{expr: "sum by (type) (" + rateOf(mJudgeRedactions, inst) + ")", legend: "{{type}}"}).Span(6),
	}
}

func healthPanels() []cog.Builder[dashboard.Panel] {
	return []cog.Builder[dashboard.Panel]{
		statPanel("Sidecar version", "Running versions (evalsidecar_build_info).", "none",
			promQuery{expr: "count by (version) (" + mBuildInfo + sel(inst) + ")", legend: "{{version}}"}),
		statPanel("Live traces", "Traces buffered in the assembler.", "none",
			promQuery{expr: "sum(" + mLiveTraces + sel(inst) + ")", legend: "live"}),
		statPanel("Scorer queue", "Runs waiting to be scored.", "none",
			promQuery{expr: "sum(" + mScorerQueue + sel(inst) + ")", legend: "queued"}),
		timeseriesPanel("Received", "Spans and log records accepted per second.", unitPerSec,
			promQuery{expr: "sum by (protocol) (" + rateOf(mReceiverSpans, inst) + ")", legend: "spans {{protocol}}"},
			promQuery{expr: "sum by (protocol) (" + rateOf(mReceiverLogRecords, inst) + ")", legend: "log records {{protocol}}"}).Span(12),
		timeseriesPanel("Requests by code", "OTLP export requests answered, by signal and response code.", unitPerSec,
			promQuery{expr: "sum by (signal, code) (" + rateOf(mReceiverRequests, inst) + ")", legend: "{{signal}} {{code}}"}),
		timeseriesPanel("Refused", "Spans and log records refused, by reason.", unitPerSec,
			promQuery{expr: "sum by (reason) (" + rateOf(mReceiverRefusedSpans, inst) + ")", legend: "spans {{reason}}"},
			promQuery{expr: "sum by (reason) (" + rateOf(mReceiverRefusedLogs, inst) + ")", legend: "log records {{reason}}"}),
		timeseriesPanel("Dropped", "Accepted data dropped, by stage and reason.", unitPerSec,
			promQuery{expr: "sum by (stage, reason) (" + rateOf(mDropped, inst) + ")", legend: "{{stage}} {{reason}}"}),
		timeseriesPanel("Traces released", "Traces released by the assembler, by outcome.", unitPerSec,
			promQuery{expr: "sum by (outcome) (" + rateOf(mAssemblerTraces, inst) + ")", legend: "{{outcome}}"}),
		timeseriesPanel("Queues", "Items waiting in the scorer and exporter queues.", "none",
			promQuery{expr: "sum(" + mScorerQueue + sel(inst) + ")", legend: "scorer"},
			promQuery{expr: "sum by (exporter) (" + mExporterQueue + sel(inst) + ")", legend: "exporter {{exporter}}"}),
		timeseriesPanel("Scoring time p95 by metric", "95th percentile of one metric call.", unitSeconds,
			promQuery{expr: "histogram_quantile(0.95, sum by (le, metric) (" + rateOf(mScorerDuration+"_bucket", inst) + "))", legend: "{{metric}}"}),
	}
}

// exporterPanels show that the exporters deliver: what they write, what
// they retry, hold and drop, how full their queues and spools are, and how
// long a ClickHouse insert takes.
func exporterPanels() []cog.Builder[dashboard.Panel] {
	return []cog.Builder[dashboard.Panel]{
		timeseriesPanel("Exported records", "Records the destination accepted per second, by exporter and stream (file or table); OpenTelemetry gen_ai.evaluation.result events by outcome.", unitPerSec,
			promQuery{expr: "sum by (exporter, stream) (" + rateOf(mExporterRecords, inst, `outcome="sent"`) + ")", legend: "{{exporter}} {{stream}}"},
			promQuery{expr: "sum by (outcome) (" + rateOf(mOtelEventsRecords, inst) + ")", legend: "otel_events {{outcome}}"}),
		timeseriesPanel("Exporter retries and drops", "Records whose write failed and is retried, or that were parked, per second (evalsidecar_exporter_records_total), and records the exporters dropped, by reason (evalsidecar_dropped_total).", unitPerSec,
			promQuery{expr: "sum by (exporter, stream, outcome) (" + rateOf(mExporterRecords, inst, `outcome=~"retried|parked"`) + ")", legend: "{{exporter}} {{stream}} {{outcome}}"},
			promQuery{expr: "sum by (stage, reason) (" + rateOf(mDropped, inst, `stage=~"`+exporterStages+`"`) + ")", legend: "{{stage}} dropped {{reason}}"}),
		timeseriesPanel("Exporter queue and spool fill", "How full each exporter's queue (queue_size / sending_queue.queue_size) and spool (bytes / spool.max_bytes) are; at 100% new records are dropped. EvalSidecarExporterStorageFilling fires above 80%.", unitRatio,
			promQuery{expr: "max by (exporter) (" + mExporterQueue + sel(inst) + ")\n/\nmax by (exporter) (" + mExporterQueueCap + sel(inst) + ")", legend: "queue {{exporter}}"},
			promQuery{expr: "max by (exporter) (" + mExporterSpoolBytes + sel(inst) + ")\n/\nmax by (exporter) (" + mExporterSpoolCap + sel(inst) + ")", legend: "spool {{exporter}}"}).
			Max(1),
		timeseriesPanel("Exporter spool", "Bytes of sealed batches waiting in exporter spools.", unitBytes,
			promQuery{expr: "sum by (exporter) (" + mExporterSpoolBytes + sel(inst) + ")", legend: "{{exporter}}"}),
		timeseriesPanel("Parked batches", "Batches held because the database refused them for their schema, by table; they are written once the table is fixed.", "none",
			promQuery{expr: "sum by (exporter, table) (" + mExporterParked + sel(inst) + ")", legend: "{{exporter}} {{table}}"}),
		timeseriesPanel("ClickHouse insert time p95", "95th percentile of one batch insert attempt by table, and failed attempts per second.", unitSeconds,
			promQuery{expr: "histogram_quantile(0.95, sum by (le, table) (" + rateOf(mExporterBatchDuration+"_bucket", inst) + "))", legend: "p95 {{table}}"},
			promQuery{expr: "sum by (table) (" + rateOf(mExporterBatchDuration+"_count", inst, `result="error"`) + ")", legend: "failed {{table}}"}),
	}
}
