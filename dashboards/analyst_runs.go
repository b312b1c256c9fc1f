package dashboards

// runsUID is the Runs dashboard, the target of the drill-down links.
const runsUID = "evalsidecar-runs"

// runsDashboard: one metric's worst runs (worst by the metric's
// direction), a run's trajectory, failed and slow runs, with trace ids
// linked to the trace UI.
func runsDashboard() analystDashboard {
	return analystDashboard{
		uid:         runsUID,
		title:       "Runs",
		description: "The worst agent runs of the period for a metric, a run's trajectory, failed and slow runs, each with its trace id linked to the trace UI. Runs are placed in time by their start.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "release", "metric", "worst_n", "trace_id"},
		panels: func(Options) []chPanel {
			scores := where("run_start", releaseFilter, metricIs)
			return []chPanel{
				chPanel{title: "Runs scored", width: 8, height: 4, description: "Runs that started in the time range with a score of the selected metric."}.
					stat("uniqExact(trace_id, span_id)", "runs", tEvaluations, scores),
				chPanel{title: "Runs failing ${metric}", width: 8, height: 4, description: "Runs whose score of the selected metric failed its pass rule (passed = 0)."}.
					stat("uniqExact(trace_id, span_id)", "runs", tEvaluations, where("run_start", releaseFilter, metricIs, "passed = 0")),
				chPanel{title: "Pass rate of ${metric}", width: 8, height: 4, unit: "percentunit",
					description: "Share of the selected metric's scores that passed its pass rule; empty for a metric without one."}.
					stat("avg(passed)", "pass_rate", tEvaluations, scores),
				{
					title: "Worst runs", kind: kindTable, width: 24, height: 12, traceLink: true, drillDown: true,
					description: "The selected metric's worst runs: lowest scores first where higher is better, highest first where lower is better (the metric's direction in the metrics table). " +
						"Click a trace id to show the run's trajectory below, or to open the trace.",
					sql: "SELECT score, passed, label, agent, service_version, trace_id, explanation, judge_model, run_start\nFROM " +
						tEvaluations + "\n" + scores +
						"\nORDER BY score * " + worseSign + " ASC, run_start DESC\nLIMIT ${worst_n}",
					columns: []string{"score", "passed", "label", "agent", "service_version", "trace_id", "explanation", "judge_model", "run_start"},
				},
				{
					title: "Run", kind: kindTable, width: 24, height: 5, traceLink: true,
					description: "The run chosen in Worst runs (or typed in the trace id box): its input, output and outcome.",
					sql: "SELECT start, agent, service_version, latency_seconds, failed, error_type, input, output, trace_id\nFROM " +
						tTrajectories + "\nWHERE trace_id = ${trace_id:singlequote}\nLIMIT 1",
					columns: []string{"start", "agent", "service_version", "latency_seconds", "failed", "error_type", "input", "output", "trace_id"},
				},
				{
					title: "Run trajectory", kind: kindTable, width: 24, height: 10,
					description: "The chosen run's tool calls in order, with their arguments, results and errors.",
					sql: "SELECT position, tool, agent, arguments, result, error, duration_seconds, start\nFROM " +
						tToolCalls + "\nWHERE trace_id = ${trace_id:singlequote}\nORDER BY position",
					columns: []string{"position", "tool", "agent", "arguments", "result", "error", "duration_seconds", "start"},
				},
				{
					title: "Failed runs", kind: kindTable, width: 24, traceLink: true, drillDown: true,
					description: "Runs that errored or produced no final output, newest first.",
					sql: "SELECT start, agent, service_version, error_type, latency_seconds, length(tool_names) AS tool_calls, trace_id\nFROM " +
						tTrajectories + "\n" + where("start", releaseFilter, "failed = 1") + "\nORDER BY start DESC\nLIMIT 200",
					columns: []string{"start", "agent", "service_version", "error_type", "latency_seconds", "tool_calls", "trace_id"},
				},
				{
					title: "Slowest runs", kind: kindTable, width: 24, traceLink: true, drillDown: true,
					description: "The longest runs of the period.",
					sql: "SELECT latency_seconds, start, agent, service_version, length(tool_names) AS tool_calls, input_tokens + output_tokens AS tokens, trace_id\nFROM " +
						tTrajectories + "\n" + where("start", releaseFilter) + "\nORDER BY latency_seconds DESC\nLIMIT 50",
					columns: []string{"latency_seconds", "start", "agent", "service_version", "tool_calls", "tokens", "trace_id"},
				},
			}
		},
	}
}
