package dashboards

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// judgeCost is the estimated cost of judge calls, row by row: the cost
// recorded from the judge's configured prices, else (a judge without
// prices) its tokens at the dashboard's prices.
const judgeCost = "sum(if(judge_cost_usd > 0, judge_cost_usd,\n" +
	"    judge_input_tokens / 1000 * ${usd_per_1k_input} + judge_output_tokens / 1000 * ${usd_per_1k_output}))"

// judgedDecisions are the eval_decisions values that are not a reason a
// run went unjudged: the ledger's queued (followed by another decision),
// scored and cached.
var judgedDecisions = []string{scorer.OutcomeScored, scorer.OutcomeCached, scorer.OutcomeQueued}

// ledgerOnlyDecisions are the decisions only the judge stage writes: a
// metric with one of them in the time range (or a judge model) is a judge
// metric.
var ledgerOnlyDecisions = []string{scorer.OutcomeQueued, scorer.OutcomeSampledOut, scorer.OutcomeFiltered,
	scorer.OutcomeOverBudget, scorer.OutcomeQueueFull, scorer.OutcomeJudgeError, scorer.OutcomeShuttingDown}

// sqlStrings renders values as a ClickHouse list of string literals; the
// values are identifiers without quotes.
func sqlStrings(vs []string) string { return "'" + strings.Join(vs, "', '") + "'" }

// judgeMetrics restricts eval_decisions rows to judge metrics, leaving out
// deterministic metrics' not_applicable and error decisions.
func judgeMetrics() string {
	return "metric IN (\n    SELECT metric FROM " + tDecisions + "\n    WHERE $__timeFilter(timestamp)\n" +
		"      AND (decision IN (" + sqlStrings(ledgerOnlyDecisions) + ") OR judge_model != ''))"
}

// judgeCostDashboard: judge calls, tokens and estimated cost per judge,
// metric and agent; the ledger of why runs were or were not judged.
func judgeCostDashboard() analystDashboard {
	judged := where("timestamp", "judge_model != ''")
	return analystDashboard{
		uid:         "evalsidecar-judge-cost",
		title:       "Judge cost",
		description: "LLM-judge calls, tokens and estimated cost per judge model, metric and agent, and the ledger of evaluation decisions.",
		tags:        []string{"analysts"},
		vars:        []string{"service", "agent", "usd_per_1k_input", "usd_per_1k_output"},
		panels: func(Options) []chPanel {
			return []chPanel{
				chPanel{title: "Judge calls", width: 8, height: 4}.stat("count()", "calls", tEvaluations, judged),
				chPanel{title: "Judge tokens", width: 8, height: 4}.stat("sum(judge_input_tokens + judge_output_tokens)", "tokens", tEvaluations, judged),
				chPanel{title: "Estimated cost", width: 8, height: 4, unit: "currencyUSD",
					description: "Judge cost recorded from the judges' configured prices; for judges without prices, their tokens at the prices set above."}.
					stat(judgeCost, "cost_usd", tEvaluations, judged),
				chPanel{title: "Judge calls by model"}.timeSeries("timestamp", "judge_model", "count()", "calls", tEvaluations, judged),
				chPanel{title: "Judge tokens by model"}.
					timeSeries("timestamp", "judge_model", "sum(judge_input_tokens + judge_output_tokens)", "tokens", tEvaluations, judged),
				{
					title: "Cost by judge, metric and agent", kind: kindTable, width: 24, unit: "short",
					sql: "SELECT judge_provider, judge_model, metric, agent, count() AS calls,\n" +
						"  sum(judge_input_tokens) AS input_tokens, sum(judge_output_tokens) AS output_tokens,\n" +
						"  avg(judge_latency_seconds) AS mean_latency_seconds, " + judgeCost + " AS cost_usd\nFROM " +
						tEvaluations + "\n" + judged +
						"\nGROUP BY judge_provider, judge_model, metric, agent\nORDER BY cost_usd DESC",
					columns: []string{"judge_provider", "judge_model", "metric", "agent", "calls", "input_tokens",
						"output_tokens", "mean_latency_seconds", "cost_usd"},
				},
				{
					title: "Agreement with people", kind: kindTable, width: 24, unit: "none",
					description: "Each judge metric on the runs started in the time range against people's feedback on them (the feedback table joined with the judge's latest score of the same run and metric): labelled runs, the share where both give the same value, Cohen's kappa (labels, or numbers with at most 10 distinct values a side; empty when undefined), and for numeric feedback Spearman's rank correlation and the mean absolute error. A record sent twice counts once; each person's record on a run counts.",
					sql:         agreementSQL,
					columns:     []string{"metric", "labelled_runs", "exact_agreement", "kappa", "spearman", "mae"},
				},
				{
					title: "Judge against people", kind: kindTable, width: 24,
					description: "The confusion matrix of each judge metric on the labelled runs of the time range: runs by the person's value (or label), then the judge's (its label, else its score).",
					sql: "SELECT metric, h AS person, j AS judge, count() AS runs\nFROM (\n" + indent(agreementPairs, "  ") +
						"\n)\nGROUP BY metric, person, judge\nORDER BY metric, person, judge\nLIMIT 1000",
					columns: []string{"metric", "person", "judge", "runs"},
				},
				chPanel{title: "Decisions over time", width: 24,
					description: "The ledger, per run and metric: scored, not applicable or error for every metric; for judge metrics, queued (sampled for a judge, followed by its outcome), sampled_out, filtered, over_budget, queue_full, judge_error, not_applicable or shutting_down."}.
					timeSeries("timestamp", "decision", "count()", "decisions", tDecisions, where("timestamp")),
				{
					title: "Why runs were not judged", kind: kindTable, width: 24,
					description: "Judge-metric decisions other than scored, cached and queued, by decision and reason: sampled_out (sampling rate), filtered (sampling filter), over_budget (reason: budget:limit), queue_full, judge_error (reason: the failure class, e.g. rate_limited, timeout, circuit_open), not_applicable, shutting_down.",
					sql: "SELECT decision, reason, count() AS decisions, uniqExact(trace_id) AS runs,\n" +
						"  arrayStringConcat(arraySort(groupUniqArray(metric)), ', ') AS metrics\nFROM " +
						tDecisions + "\n" + where("timestamp", "decision NOT IN ("+sqlStrings(judgedDecisions)+")", judgeMetrics()) +
						"\nGROUP BY decision, reason\nORDER BY decisions DESC\nLIMIT 200",
					columns: []string{"decision", "reason", "decisions", "runs", "metrics"},
				},
			}
		},
	}
}

// agreementPairs pairs people's feedback on the runs started in the time
// range with the judge's scores: one row per feedback row (deduplicated
// by row key) and the judge's latest score of its run and metric. j is
// the judge's side as a label (its label, else its score) and h the
// person's (the value when there is one, else the label).
var agreementPairs = "SELECT metric, has_value, value, j_score,\n" +
	"  if(has_value = 1, toString(j_score), if(j_label != '', j_label, toString(j_score))) AS j,\n" +
	"  if(has_value = 1, toString(value), label) AS h\n" +
	"FROM (\n" +
	"  SELECT metric, trace_id, argMax(score, timestamp) AS j_score, argMax(label, timestamp) AS j_label\n" +
	"  FROM " + tEvaluations + "\n" +
	"  " + judgedRuns + "\n" +
	"  GROUP BY metric, trace_id\n" +
	") ALL INNER JOIN (\n" +
	"  SELECT metric, trace_id, any(has_value) AS has_value, any(value) AS value, any(label) AS label\n" +
	"  FROM " + tFeedback + "\n" +
	"  WHERE trace_id IN (SELECT trace_id FROM " + tEvaluations + "\n" +
	"    " + judgedRuns + ")\n" +
	"  GROUP BY metric, trace_id, row_key\n" +
	") USING (metric, trace_id)"

// judgedRuns selects the judge's scores of the runs started in the time
// range.
var judgedRuns = where("run_start", "judge_model != ''")

// agreementSQL computes, per judge metric, the statistics sidecar eval
// writes to summary.json (scorer/aggregate) over agreementPairs, in SQL
// that ClickHouse 18.16 runs (no window or rank functions). Kappa is
// (po − pe) / (1 − pe), pe summed over the person's values (a value only
// the judge gives adds 0). Spearman's is Pearson's correlation of the
// ranks, tied values given the mean of their ranks (pairRanks).
var agreementSQL = "SELECT metric, n AS labelled_runs, po AS exact_agreement,\n" +
	"  if(pe < 1 AND (numeric = 0 OR length(arrayDistinct(arrayConcat(js, hs))) <= 10), (po - pe) / (1 - pe), NULL) AS kappa,\n" +
	"  if(numeric = 1 AND NOT isNaN(rho), rho, NULL) AS spearman,\n" +
	"  if(numeric = 1, mae, NULL) AS mae\n" +
	"FROM (\n" +
	"  SELECT metric, count() AS n, avg(j = h) AS po, min(has_value) AS numeric,\n" +
	"    avgIf(abs(j_score - value), has_value = 1) AS mae, groupArray(j) AS js, groupArray(h) AS hs,\n" +
	"    arraySum(k -> countEqual(js, k) * countEqual(hs, k), arrayDistinct(hs)) / (n * n) AS pe\n" +
	"  FROM (\n" + indent(agreementPairs, "    ") + "\n  )\n" +
	"  GROUP BY metric\n" +
	") ALL LEFT JOIN (\n" +
	"  SELECT metric, corr(rank_j_score, rank_value) AS rho\n" +
	"  FROM (\n" +
	"    SELECT metric, value, rank_j_score\n" +
	"    FROM (SELECT metric, j_score, value FROM (\n" + indent(agreementPairs, "      ") + "\n    ) WHERE has_value = 1)\n" +
	"    ALL INNER JOIN (\n" + indent(pairRanks("j_score"), "      ") + "\n    ) USING (metric, j_score)\n" +
	"  ) ALL INNER JOIN (\n" + indent(pairRanks("value"), "    ") + "\n  ) USING (metric, value)\n" +
	"  GROUP BY metric\n" +
	") USING (metric)\n" +
	"ORDER BY metric"

// pairRanks gives each value of col (j_score or value) among a metric's
// numeric pairs its rank: the values below it plus the mean of the
// positions its ties take, (count + 1) / 2.
func pairRanks(col string) string {
	return "SELECT metric, tupleElement(vc, 1) AS " + col + ", tupleElement(vc, 3) - tupleElement(vc, 2) + (tupleElement(vc, 2) + 1) / 2 AS rank_" + col + "\n" +
		"FROM (\n" +
		"  SELECT metric, arraySort(groupArray((v, c))) AS sorted,\n" +
		"    arrayMap((t, s) -> (tupleElement(t, 1), tupleElement(t, 2), s), sorted, arrayCumSum(arrayMap(t -> tupleElement(t, 2), sorted))) AS ranked\n" +
		"  FROM (SELECT metric, " + col + " AS v, count() AS c FROM (\n" + indent(agreementPairs, "    ") + "\n  ) WHERE has_value = 1 GROUP BY metric, v)\n" +
		"  GROUP BY metric\n" +
		")\n" +
		"ARRAY JOIN ranked AS vc"
}

// indent prefixes every line of s with p.
func indent(s, p string) string { return p + strings.ReplaceAll(s, "\n", "\n"+p) }
