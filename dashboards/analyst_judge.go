package dashboards

import "fmt"

// judgeCost is the estimated cost of judge calls: the recorded cost when
// the judge recorded one, else tokens at the dashboard's prices.
const judgeCost = "if(sum(judge_cost_usd) > 0, sum(judge_cost_usd),\n" +
	"    sum(judge_input_tokens) / 1000 * ${usd_per_1k_input} + sum(judge_output_tokens) / 1000 * ${usd_per_1k_output})"

// judgeCostDashboard: judge calls, tokens and estimated cost per judge,
// metric and agent; the ledger of why runs were or were not judged.
func judgeCostDashboard() analystDashboard {
	judged := "judge_model != ''"
	return analystDashboard{
		uid:         "evalsidecar-judge-cost",
		title:       "Judge cost",
		description: "LLM-judge calls, tokens and estimated cost per judge model, metric and agent, and the ledger of evaluation decisions.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "usd_per_1k_input", "usd_per_1k_output"},
		panels: func(Options) []chPanel {
			return []chPanel{
				{
					title: "Judge calls", kind: kindStat, width: 8, height: 4,
					sql:     "SELECT count() AS calls\nFROM " + tEvaluations + "\n" + where("timestamp", judged),
					columns: []string{"calls"},
				},
				{
					title: "Judge tokens", kind: kindStat, width: 8, height: 4,
					sql:     "SELECT sum(judge_input_tokens + judge_output_tokens) AS tokens\nFROM " + tEvaluations + "\n" + where("timestamp", judged),
					columns: []string{"tokens"},
				},
				{
					title: "Estimated cost", kind: kindStat, width: 8, height: 4, unit: "currencyUSD",
					description: "Recorded judge cost, or tokens at the prices set above.",
					sql:         "SELECT " + judgeCost + " AS cost_usd\nFROM " + tEvaluations + "\n" + where("timestamp", judged),
					columns:     []string{"cost_usd"},
				},
				{
					title: "Judge calls by model", kind: kindTimeSeries,
					sql: fmt.Sprintf("SELECT %s AS time, judge_model AS series, count() AS calls\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("timestamp"), tEvaluations, where("timestamp", judged)),
					columns: []string{"time", "series", "calls"},
				},
				{
					title: "Judge tokens by model", kind: kindTimeSeries,
					sql: fmt.Sprintf("SELECT %s AS time, judge_model AS series, sum(judge_input_tokens + judge_output_tokens) AS tokens\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("timestamp"), tEvaluations, where("timestamp", judged)),
					columns: []string{"time", "series", "tokens"},
				},
				{
					title: "Cost by judge, metric and agent", kind: kindTable, width: 24, unit: "short",
					sql: "SELECT judge_provider, judge_model, metric, agent, count() AS calls,\n" +
						"  sum(judge_input_tokens) AS input_tokens, sum(judge_output_tokens) AS output_tokens,\n" +
						"  avg(judge_latency_seconds) AS mean_latency_seconds, " + judgeCost + " AS cost_usd\nFROM " +
						tEvaluations + "\n" + where("timestamp", judged) +
						"\nGROUP BY judge_provider, judge_model, metric, agent\nORDER BY cost_usd DESC",
					columns: []string{"judge_provider", "judge_model", "metric", "agent", "calls", "input_tokens",
						"output_tokens", "mean_latency_seconds", "cost_usd"},
				},
				{
					title: "Decisions over time", kind: kindTimeSeries,
					description: "The ledger: per run and metric, scored, not applicable, or failed.",
					sql: fmt.Sprintf("SELECT %s AS time, decision AS series, count() AS decisions\nFROM %s\n%s\nGROUP BY time, series\nORDER BY time",
						bucket("timestamp"), tDecisions, where("timestamp")),
					columns: []string{"time", "series", "decisions"},
				},
				{
					title: "Why runs were not judged", kind: kindTable,
					description: "Ledger decisions other than scored, by metric and reason.",
					sql: "SELECT metric, decision, reason, count() AS decisions, uniqExact(trace_id) AS runs\nFROM " +
						tDecisions + "\n" + where("timestamp", "decision != 'scored'") +
						"\nGROUP BY metric, decision, reason\nORDER BY decisions DESC\nLIMIT 200",
					columns: []string{"metric", "decision", "reason", "decisions", "runs"},
				},
			}
		},
	}
}
