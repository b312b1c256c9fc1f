package clickhouse

import "slices"

// tableID names one of the exporter's tables independently of the
// configured table names (spool files record it).
type tableID uint8

const (
	tEvaluations tableID = iota
	tTrajectories
	tToolCalls
	tDecisions
	tFeedback
	numTables
)

// String is the table's logical name (its default table name).
func (t tableID) String() string {
	if t < numTables {
		return defaultTableNames().names()[t]
	}
	return "unknown"
}

func tableByName(s string) (tableID, bool) {
	names := defaultTableNames().names()
	i := slices.Index(names[:], s)
	return tableID(max(i, 0)), i >= 0
}

// tableDef is a table's shape: its columns (in insert order), time column
// and ordering key.
type tableDef struct {
	id         tableID
	columns    []column
	timeColumn string
	// orderBy is the sorting key. With ReplacingMergeTree it is also the
	// key under which duplicates collapse, so it ends with row_key.
	orderBy []string
}

const (
	codecTime = "Delta, ZSTD(1)"
	codecZSTD = "ZSTD(1)"
)

// Column definitions. The order is the insert order and the order in
// which the row builders in rows.go write values.
var (
	// runColumns identify the run (or session) of a row.
	runColumns = []column{
		{"trace_id", kString, codecZSTD},
		{"span_id", kString, codecZSTD},
		{"service", kLowString, codecZSTD},
		{"service_version", kLowString, codecZSTD},
		{"environment", kLowString, codecZSTD},
		{"agent", kLowString, codecZSTD},
		{"session_id", kString, codecZSTD},
	}
	// trailer ends every table: the writing sidecar's version and the
	// row's key.
	trailer = []column{{"sidecar_version", kLowString, codecZSTD}, {"row_key", kUInt64, ""}}

	// evaluations: one row per score. Ordered by (metric, service, agent,
	// hour, row_key): every analyst panel filters on a metric and groups
	// or filters by agent within a time range, so those queries read a
	// narrow key range of each daily partition; the hour (not the exact
	// time) before row_key lets a run re-scored within the hour collapse
	// with its earlier row under ReplacingMergeTree.
	evaluationsDef = tableDef{
		id: tEvaluations,
		columns: slices.Concat([]column{
			{"timestamp", kTime, codecTime},
			{"run_start", kTime, codecTime},
		}, runColumns, []column{
			{"metric", kLowString, codecZSTD},
			{"metric_version", kLowString, codecZSTD},
			{"score", kFloat64, codecZSTD},
			{"label", kString, codecZSTD},
			{"explanation", kString, codecZSTD},
			{"confidence", kFloat64, codecZSTD},
			// passed: the pass verdict, NULL without a pass rule (added
			// by migration 2).
			{"passed", kNullUInt8, codecZSTD},
			{"details", kString, codecZSTD},
			{"judge_provider", kLowString, codecZSTD},
			{"judge_model", kLowString, codecZSTD},
			{"judge_input_tokens", kUInt64, codecZSTD},
			{"judge_output_tokens", kUInt64, codecZSTD},
			{"judge_latency_seconds", kFloat64, codecZSTD},
			{"judge_cost_usd", kFloat64, codecZSTD},
			// judge_cached: 1 when the result was reused from an
			// identical earlier run, no call made for this one (its
			// tokens and cost are 0; added by migration 3).
			{"judge_cached", kUInt8, codecZSTD},
		}, trailer),
		timeColumn: "timestamp",
		orderBy:    []string{"metric", "service", "agent", "toStartOfHour(timestamp)", "row_key"},
	}

	// trajectories: one row per run. Ordered by (service, agent, hour,
	// row_key): run panels filter by agent and time and sort by measures,
	// and the per-run key collapses a replayed or re-exported run.
	trajectoriesDef = tableDef{
		id: tTrajectories,
		columns: slices.Concat([]column{
			{"start", kTime, codecTime},
			{"end", kTime, codecTime},
		}, runColumns, []column{
			{"convention", kLowString, codecZSTD},
			{"latency_seconds", kFloat64, codecZSTD},
			{"failed", kUInt8, codecZSTD},
			{"error_type", kString, codecZSTD},
			{"input", kString, codecZSTD},
			{"output", kString, codecZSTD},
			{"instructions", kString, codecZSTD},
			{"tool_names", kStrings, codecZSTD},
			{"tool_errors", kStrings, codecZSTD},
			{"llm_calls", kUInt32, codecZSTD},
			{"models", kStrings, codecZSTD},
			{"input_tokens", kUInt64, codecZSTD},
			{"output_tokens", kUInt64, codecZSTD},
			{"tool_calls_json", kString, codecZSTD},
			// replies: the run's model replies as JSON (agentrun.Reply:
			// text, indexes of the calls each made) for a run of a
			// conversation, which the session scorer reads back with
			// the tool_calls rows; '' otherwise (added by migration 5).
			{"replies", kString, codecZSTD},
			{"attributes", kString, codecZSTD},
			{"truncated", kUInt8, codecZSTD},
		}, trailer),
		timeColumn: "start",
		orderBy:    []string{"service", "agent", "toStartOfHour(start)", "row_key"},
	}

	// tool_calls: one row per call. Ordered by (tool, agent, hour,
	// row_key): the Tools dashboard groups by tool and agent over time.
	toolCallsDef = tableDef{
		id: tToolCalls,
		columns: slices.Concat([]column{
			{"start", kTime, codecTime},
			{"trace_id", kString, codecZSTD},
			{"run_span_id", kString, codecZSTD},
			{"span_id", kString, codecZSTD},
			{"position", kUInt32, codecZSTD},
			{"tool", kLowString, codecZSTD},
			{"call_id", kString, codecZSTD},
			{"service", kLowString, codecZSTD},
			{"service_version", kLowString, codecZSTD},
			{"agent", kLowString, codecZSTD},
			{"run_agent", kLowString, codecZSTD},
			{"arguments_bytes", kUInt32, codecZSTD},
			{"arguments_valid", kUInt8, codecZSTD},
			{"result_bytes", kUInt32, codecZSTD},
			{"error", kString, codecZSTD},
			// arguments and result: the call's text, for a run's
			// drill-down (added by migration 2).
			{"arguments", kString, codecZSTD},
			{"result", kString, codecZSTD},
			{"failed", kUInt8, codecZSTD},
			{"repeated", kUInt8, codecZSTD},
			{"duration_seconds", kFloat64, codecZSTD},
		}, trailer),
		timeColumn: "start",
		orderBy:    []string{"tool", "agent", "toStartOfHour(start)", "row_key"},
	}

	// eval_decisions: the ledger, one row per run and metric saying
	// whether the metric scored, did not apply, failed or was skipped.
	// Ordered by (decision, metric, agent, hour, row_key): the Judge cost
	// dashboard breaks decisions down by kind and metric.
	decisionsDef = tableDef{
		id: tDecisions,
		columns: slices.Concat([]column{
			{"timestamp", kTime, codecTime},
			{"trace_id", kString, codecZSTD},
			{"span_id", kString, codecZSTD},
			{"service", kLowString, codecZSTD},
			{"service_version", kLowString, codecZSTD},
			{"agent", kLowString, codecZSTD},
			{"metric", kLowString, codecZSTD},
			{"decision", kLowString, codecZSTD},
			{"reason", kString, codecZSTD},
			{"judge_provider", kLowString, codecZSTD},
			{"judge_model", kLowString, codecZSTD},
			{"judge_input_tokens", kUInt64, codecZSTD},
			{"judge_output_tokens", kUInt64, codecZSTD},
			{"judge_cost_usd", kFloat64, codecZSTD},
		}, trailer),
		timeColumn: "timestamp",
		orderBy:    []string{"decision", "metric", "agent", "toStartOfHour(timestamp)", "row_key"},
	}

	// feedback: people's judgements of runs, one row per record, keyed
	// like evaluations by trace id and metric (created by migration 4).
	// Ordered by (metric, hour, row_key): agreement panels join a
	// metric's feedback with its scores over a time range; the row key
	// (trace, metric, annotator, time) collapses a record sent twice.
	feedbackDef = tableDef{
		id: tFeedback,
		columns: slices.Concat([]column{
			{"timestamp", kTime, codecTime},
			{"trace_id", kString, codecZSTD},
			{"span_id", kString, codecZSTD},
			{"service", kLowString, codecZSTD},
			{"metric", kLowString, codecZSTD},
			// has_value: 1 when value holds a numeric score, 0 for a
			// label-only record (value 0).
			{"has_value", kUInt8, codecZSTD},
			{"value", kFloat64, codecZSTD},
			{"label", kString, codecZSTD},
			{"explanation", kString, codecZSTD},
			{"annotator", kString, codecZSTD},
		}, trailer),
		timeColumn: "timestamp",
		orderBy:    []string{"metric", "toStartOfHour(timestamp)", "row_key"},
	}
)

var tableDefs = [numTables]*tableDef{
	tEvaluations:  &evaluationsDef,
	tTrajectories: &trajectoriesDef,
	tToolCalls:    &toolCallsDef,
	tDecisions:    &decisionsDef,
	tFeedback:     &feedbackDef,
}

// Decision values of the eval_decisions table written for every metric;
// judge-ledger outcomes (scorer.Outcome*: sampled_out, over_budget,
// judge_error, ...) are written as they are.
const (
	DecisionScored        = "scored"
	DecisionNotApplicable = "not_applicable"
	DecisionError         = "error"
)

// names are the configured table names in tableID order.
func (n TableNames) names() [numTables]string {
	return [numTables]string{n.Evaluations, n.Trajectories, n.ToolCalls, n.EvalDecisions, n.Feedback}
}

// name returns the configured name of t.
func (n TableNames) name(t tableID) string { return n.names()[t] }
