package dashboards

import "fmt"

// qualityDashboard: score trends per metric and agent, releases compared,
// pass rates against the threshold, failure and tool-error rates, runs.
func qualityDashboard() analystDashboard {
	return analystDashboard{
		uid:         "evalsidecar-agent-quality",
		title:       "Agent quality",
		description: "Evaluation scores by metric, agent and release (service.version), from the sidecar's ClickHouse tables.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "metric", "threshold"},
		panels: func(Options) []chPanel {
			return []chPanel{
				{
					title: "Runs", kind: kindStat, width: 6, height: 4,
					description: "Agent runs in the time range.",
					sql:         "SELECT count() AS runs\nFROM " + tTrajectories + "\n" + where("start"),
					columns:     []string{"runs"},
				},
				{
					title: "Mean score", kind: kindStat, width: 6, height: 4,
					description: "Mean of the selected metrics' scores.",
					sql:         "SELECT avg(score) AS score\nFROM " + tEvaluations + "\n" + where("timestamp", metricFilter),
					columns:     []string{"score"},
				},
				{
					title: "Pass rate", kind: kindStat, width: 6, height: 4, unit: "percentunit",
					description: "Share of scores at or above the pass threshold.",
					sql:         "SELECT avg(score >= ${threshold}) AS pass_rate\nFROM " + tEvaluations + "\n" + where("timestamp", metricFilter),
					columns:     []string{"pass_rate"},
				},
				{
					title: "Failed runs", kind: kindStat, width: 6, height: 4, unit: "percentunit",
					description: "Share of runs that errored or produced no final output.",
					sql:         "SELECT avg(failed) AS failure_rate\nFROM " + tTrajectories + "\n" + where("start"),
					columns:     []string{"failure_rate"},
				},
				{
					title: "Score by metric and agent", kind: kindTimeSeries, width: 24,
					description: "Mean score per metric and agent over time.",
					sql: fmt.Sprintf("SELECT %s AS time, concat(metric, ' / ', agent) AS series, avg(score) AS score\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("timestamp"), tEvaluations, where("timestamp", metricFilter)),
					columns: []string{"time", "series", "score"},
				},
				{
					title: "Score by release", kind: kindTimeSeries,
					description: "Mean score per metric and service.version: a new release's line next to the old one.",
					sql: fmt.Sprintf("SELECT %s AS time, concat(metric, ' @ ', service_version) AS series, avg(score) AS score\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("timestamp"), tEvaluations, where("timestamp", metricFilter)),
					columns: []string{"time", "series", "score"},
				},
				{
					title: "Release comparison", kind: kindTable,
					description: "Per metric and release: scores, mean, 10th percentile and pass rate against the threshold, side by side.",
					sql: "SELECT metric, service_version, count() AS scores, avg(score) AS mean_score,\n" +
						"  avg(score >= ${threshold}) AS pass_rate, quantile(0.1)(score) AS p10_score\nFROM " + tEvaluations + "\n" +
						where("timestamp", metricFilter) + "\nGROUP BY metric, service_version\nORDER BY metric, service_version",
					columns: []string{"metric", "service_version", "scores", "mean_score", "pass_rate", "p10_score"},
				},
				{
					title: "Pass rate by metric", kind: kindTimeSeries, unit: "percentunit",
					description: "Share of scores at or above the pass threshold, per metric.",
					sql: fmt.Sprintf("SELECT %s AS time, metric AS series, avg(score >= ${threshold}) AS pass_rate\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("timestamp"), tEvaluations, where("timestamp", metricFilter)),
					columns: []string{"time", "series", "pass_rate"},
				},
				{
					title: "Failure and tool-error rates", kind: kindTimeSeries, unit: "percentunit",
					description: "Share of failed runs, and share of tool calls that returned an error.",
					sql: fmt.Sprintf("SELECT %s AS time, avg(failed) AS failed_runs,\n"+
						"  sum(arrayCount(e -> e != '', tool_errors)) / greatest(sum(length(tool_names)), 1) AS tool_errors\nFROM %s\n%s\nGROUP BY time\nORDER BY time",
						bucket("start"), tTrajectories, where("start")),
					columns: []string{"time", "failed_runs", "tool_errors"},
				},
				{
					title: "Runs by agent", kind: kindTimeSeries,
					description: "Agent runs over time.",
					sql: fmt.Sprintf("SELECT %s AS time, agent AS series, count() AS runs\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("start"), tTrajectories, where("start")),
					columns: []string{"time", "series", "runs"},
				},
			}
		},
	}
}
