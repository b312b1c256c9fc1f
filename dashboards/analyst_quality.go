package dashboards

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/vertex"
)

// qualityDashboard: one metric's scores and pass rate by agent and
// release, every metric's release comparison, failure and tool-error
// rates, runs. Every panel places runs in time by their start.
func qualityDashboard() analystDashboard {
	return analystDashboard{
		uid:         "evalsidecar-agent-quality",
		title:       "Agent quality",
		description: "Evaluation scores by metric, agent and release (service.version), from the sidecar's ClickHouse tables. Runs are placed in time by their start.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "release", "metric"},
		panels: func(Options) []chPanel {
			scores, runs := where("run_start", releaseFilter, metricIs), where("start", releaseFilter)
			return []chPanel{
				chPanel{title: "Runs", width: 6, height: 4, description: "Agent runs that started in the time range."}.
					stat("count()", "runs", tTrajectories, runs),
				chPanel{title: "Mean ${metric}", width: 6, height: 4,
					description: "Mean score of the selected metric over the runs that started in the time range (in the metric's unit: see its row in the metrics table)."}.
					stat("avg(score)", "score", tEvaluations, scores),
				chPanel{title: "Pass rate of ${metric}", width: 6, height: 4, unit: "percentunit",
					description: "Share of the selected metric's scores that passed its pass rule (passed = 1); empty for a metric without a pass rule."}.
					stat("avg(passed)", "pass_rate", tEvaluations, scores),
				chPanel{title: "Failed runs", width: 6, height: 4, unit: "percentunit", description: "Share of runs that errored or produced no final output."}.
					stat("avg(failed)", "failure_rate", tTrajectories, runs),
				chPanel{title: "${metric} by agent", description: "Mean score of the selected metric per agent, by run start."}.
					timeSeries("run_start", "agent", "avg(score)", "score", tEvaluations, scores),
				chPanel{title: "${metric} by release", description: "Mean score of the selected metric per service.version: a new release's line next to the old one."}.
					timeSeries("run_start", "service_version", "avg(score)", "score", tEvaluations, scores),
				chPanel{title: "Pass rate of ${metric} by release", unit: "percentunit",
					description: "Share of the selected metric's scores that passed its pass rule, per service.version."}.
					timeSeries("run_start", "service_version", "avg(passed)", "pass_rate", tEvaluations, scores),
				{
					title: "Failure and tool-error rates", kind: kindTimeSeries, unit: "percentunit",
					description: "Share of failed runs, and share of tool calls that returned an error.",
					sql: fmt.Sprintf("SELECT %s AS time, avg(failed) AS failed_runs,\n"+
						"  sum(arrayCount(e -> e != '', tool_errors)) / greatest(sum(length(tool_names)), 1) AS tool_errors\nFROM %s\n%s\nGROUP BY time\nORDER BY time",
						bucket("start"), tTrajectories, runs),
					columns: []string{"time", "failed_runs", "tool_errors"},
				},
				{
					title: "Release comparison", kind: kindTable, width: 24, height: 10,
					description: "Every metric, each release next to the release before it (by first run): scores (sample size), mean score and pass rate, and their change. " +
						"A change is better or worse by the metric's direction.",
					sql: releaseChange("metric", "scores", []string{"mean_score", "pass_rate"},
						"    SELECT metric, service_version AS release, min(run_start) AS first, count() AS n, avg(score) AS mean_score, avg(passed) AS pass_rate\n    FROM "+
							tEvaluations+"\n    "+where("run_start", releaseFilter)+"\n    GROUP BY metric, release"),
					columns: []string{"metric", "release", "scores", "mean_score", "pass_rate", "previous_release", "previous_scores",
						"mean_score_change", "pass_rate_change"},
				},
				{
					title: "Candidate vs baseline", kind: kindTable, width: 24, unit: "percentunit",
					description: "Online pairwise metrics (pairwise_<template>): each candidate release's canary runs judged against the baseline release's latest run of the same eval case. " +
						"Per metric and candidate release: runs compared, and the shares the judge found the candidate better (win), neither (tie) or the baseline better (loss); " +
						"inconsistent is the share of ties that came from the two orders disagreeing (position bias).",
					sql: "SELECT metric, service_version AS release, count() AS compared,\n" +
						"  avg(label = '" + vertex.ChoiceCandidate + "') AS win_rate, avg(label = '" + vertex.ChoiceTie + "') AS tie_rate, avg(label = '" + vertex.ChoiceBaseline + "') AS loss_rate,\n" +
						"  avg(visitParamExtractBool(details, 'position_consistent') = 0) AS inconsistent\nFROM " + tEvaluations + "\n" +
						where("run_start", releaseFilter, "metric LIKE '"+vertex.PairwisePrefix+"%'") + "\nGROUP BY metric, release\nORDER BY metric, release",
					columns: []string{"metric", "release", "compared", "win_rate", "tie_rate", "loss_rate", "inconsistent"},
				},
				chPanel{title: "Runs by agent", width: 24, description: "Agent runs over time."}.
					timeSeries("start", "agent", "count()", "runs", tTrajectories, runs),
			}
		},
	}
}
