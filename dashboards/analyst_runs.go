package dashboards

// runsDashboard: the worst runs of the period per metric, with trace ids
// linked to the trace UI and the judge's explanation.
func runsDashboard() analystDashboard {
	return analystDashboard{
		uid:         "evalsidecar-runs",
		title:       "Runs",
		description: "The worst agent runs of the period per metric, failed and slow runs, each with its trace id linked to the trace UI.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "metric", "threshold", "worst_n"},
		panels: func(Options) []chPanel {
			return []chPanel{
				{
					title: "Runs below threshold", kind: kindStat, width: 8, height: 4,
					description: "Runs with at least one selected metric below the pass threshold.",
					sql:         "SELECT uniqExact(trace_id, span_id) AS runs\nFROM " + tEvaluations + "\n" + where("timestamp", metricFilter, "score < ${threshold}"),
					columns:     []string{"runs"},
				},
				{
					title: "Worst runs per metric", kind: kindTable, width: 24, height: 12, traceLink: true,
					description: "The lowest-scoring runs of each selected metric, with the judge's explanation. Click a trace id to open the trace.",
					sql: "SELECT metric, score, label, agent, service_version, trace_id, explanation, judge_model, timestamp\nFROM " +
						tEvaluations + "\n" + where("timestamp", metricFilter) +
						"\nORDER BY metric, score ASC, timestamp DESC\nLIMIT ${worst_n} BY metric",
					columns: []string{"metric", "score", "label", "agent", "service_version", "trace_id", "explanation", "judge_model", "timestamp"},
				},
				{
					title: "Failed runs", kind: kindTable, width: 24, traceLink: true,
					description: "Runs that errored or produced no final output, newest first.",
					sql: "SELECT start, agent, service_version, error_type, latency_seconds, length(tool_names) AS tool_calls, trace_id\nFROM " +
						tTrajectories + "\n" + where("start", "failed = 1") + "\nORDER BY start DESC\nLIMIT 200",
					columns: []string{"start", "agent", "service_version", "error_type", "latency_seconds", "tool_calls", "trace_id"},
				},
				{
					title: "Slowest runs", kind: kindTable, width: 24, traceLink: true,
					description: "The longest runs of the period.",
					sql: "SELECT latency_seconds, start, agent, service_version, length(tool_names) AS tool_calls, input_tokens + output_tokens AS tokens, trace_id\nFROM " +
						tTrajectories + "\n" + where("start") + "\nORDER BY latency_seconds DESC\nLIMIT 50",
					columns: []string{"latency_seconds", "start", "agent", "service_version", "tool_calls", "tokens", "trace_id"},
				},
			}
		},
	}
}
