package dashboards

const toolFilter = "tool IN (${tool:singlequote})"

// toolsDashboard: calls, errors, latency and repeated calls per tool and
// agent.
func toolsDashboard() analystDashboard {
	return analystDashboard{
		uid:         "evalsidecar-tools",
		title:       "Tools",
		description: "Tool calls of agent runs: volume, errors, latency and repeated calls, per tool and agent.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "release", "tool"},
		panels: func(Options) []chPanel {
			w := where("start", toolFilter, releaseFilter)
			return []chPanel{
				chPanel{title: "Calls by tool", description: "Tool calls over time."}.
					timeSeries("start", "tool", "count()", "calls", tToolCalls, w),
				chPanel{title: "Error rate by tool", unit: "percentunit", description: "Share of calls that returned an error."}.
					timeSeries("start", "tool", "avg(failed)", "error_rate", tToolCalls, w),
				chPanel{title: "p95 latency by tool", unit: "s", description: "95th percentile of call duration."}.
					timeSeries("start", "tool", "quantile(0.95)(duration_seconds)", "p95_seconds", tToolCalls, w),
				chPanel{title: "Repeated calls by tool", unit: "percentunit", description: "Share of calls that repeat an earlier call of the same run with the same arguments."}.
					timeSeries("start", "tool", "avg(repeated)", "repeated_rate", tToolCalls, w),
				{
					title: "Tool error rate by release", kind: kindTable, width: 24, height: 10,
					description: "Which tool got worse after a release: per tool, each release next to the release before it (by first call), with calls (sample size), error rate and its change. Sorted by tool; sort by error_rate_change to see the largest rise.",
					sql: releaseChange("tool", "calls", []string{"error_rate"},
						"    SELECT tool, service_version AS release, min(start) AS first, count() AS n, avg(failed) AS error_rate\n    FROM "+
							tToolCalls+"\n    "+w+"\n    GROUP BY tool, release"),
					columns: []string{"tool", "release", "calls", "error_rate", "previous_release", "previous_calls", "error_rate_change"},
				},
				{
					title: "Tools by agent", kind: kindTable, width: 24, height: 10,
					description: "Per tool and calling agent: calls, errors, latency, repeated calls, argument sizes.",
					sql: "SELECT tool, agent, count() AS calls, sum(failed) AS errors, avg(failed) AS error_rate,\n" +
						"  quantile(0.5)(duration_seconds) AS p50_seconds, quantile(0.95)(duration_seconds) AS p95_seconds,\n" +
						"  sum(repeated) AS repeated_calls, avg(arguments_valid) AS valid_arguments, avg(arguments_bytes) AS mean_argument_bytes\nFROM " +
						tToolCalls + "\n" + w + "\nGROUP BY tool, agent\nORDER BY calls DESC\nLIMIT 500",
					columns: []string{"tool", "agent", "calls", "errors", "error_rate", "p50_seconds", "p95_seconds",
						"repeated_calls", "valid_arguments", "mean_argument_bytes"},
				},
				{
					title: "Top tool errors", kind: kindTable, width: 24,
					description: "Most frequent error messages per tool.",
					sql: "SELECT tool, error, count() AS calls, uniqExact(trace_id) AS runs, max(start) AS last_seen\nFROM " +
						tToolCalls + "\n" + where("start", toolFilter, releaseFilter, "failed = 1") + "\nGROUP BY tool, error\nORDER BY calls DESC\nLIMIT 100",
					columns: []string{"tool", "error", "calls", "runs", "last_seen"},
				},
			}
		},
	}
}
