package dashboards

import "fmt"

// splitTracesRatio is the share of released traces missing a parent span
// above which EvalSidecarTracesSplit fires: a rollout of the routing tier
// splits a few traces, misrouting splits most.
const splitTracesRatio = 0.05

// operations are the alerts on the sidecar itself.
func (g ruleGen) operations() []Rule {
	w := dur(g.p.RateWindow)
	long := dur(3 * g.p.RateWindow)
	forOps := dur(g.p.OpsFor)
	silence := dur(g.p.SilenceWindow)
	inst := "job, instance"
	pct := `{{ $value | humanizePercentage }}`
	return []Rule{
		g.alert("EvalSidecarDown",
			fmt.Sprintf("up{%s} == 0", g.p.UpSelector), dur(g.p.RateWindow), severityWarning, categoryOperational,
			"evalsidecar {{ $labels.instance }} is not scraped",
			"Prometheus could not scrape {{ $labels.instance }} (job {{ $labels.job }}) for "+dur(g.p.RateWindow)+": no evaluations are published and the agent's exports to it fail."),
		g.op("EvalSidecarDataRefused", severityWarning,
			fmt.Sprintf("sum by (%s, reason) (rate(%s{reason!=\"shutting_down\"}[%s]))\n/ on (%s) group_left ()\n(sum by (%s) (rate(%s[%s])) + sum by (%s) (rate(%s[%s])))\n> 0.01",
				inst, mReceiverRefusedSpans, w, inst, inst, mReceiverSpans, w, inst, mReceiverRefusedSpans, w),
			"evalsidecar {{ $labels.instance }} refuses spans ({{ $labels.reason }})",
			pct+" of the spans sent to {{ $labels.instance }} over the last "+w+" were refused with reason {{ $labels.reason }}."),
		g.op("EvalSidecarDataDropped", severityWarning,
			fmt.Sprintf("sum by (%s, stage, reason) (rate(%s{reason!~%q}[%s])) > 0",
				inst, mDropped, benignDropReasons, w),
			"evalsidecar {{ $labels.instance }} drops data in {{ $labels.stage }} ({{ $labels.reason }})",
			"{{ $labels.instance }} dropped {{ $value | humanize }} items/s of accepted data in stage {{ $labels.stage }} with reason {{ $labels.reason }} over the last "+w+"."),
		g.op("EvalSidecarMetricErrors", severityWarning,
			fmt.Sprintf("sum by (%s, metric) (rate(%s[%s]))\n/\nsum by (%s, metric) (rate(%s_count[%s]))\n> 0.05",
				inst, mEvalErrors, w, inst, mScorerDuration, w),
			"Metric {{ $labels.metric }} fails to score on {{ $labels.instance }}",
			pct+" of the {{ $labels.metric }} evaluations on {{ $labels.instance }} ended in an error, timeout or panic over the last "+w+"; those runs get no {{ $labels.metric }} score."),
		g.judgeErrorsHigh(),
		g.judgeAgreementLow(),
		g.op("EvalSidecarJudgeCircuitOpen", severityWarning,
			fmt.Sprintf("max by (%s, judge) (%s) > 0", inst, mJudgeCircuitOpen),
			"Judge {{ $labels.judge }} circuit breaker open on {{ $labels.instance }}",
			"{{ $labels.instance }} has stopped calling judge {{ $labels.judge }} for "+forOps+" after repeated failures; its metrics go to the judge's fallback if one is configured, else they are skipped as judge_error (circuit_open)."),
		g.op("EvalSidecarJudgeBudgetExhausted", severityInfo,
			fmt.Sprintf("sum by (%s, metric) (rate(%s{reason=%q}[%s])) > 0", inst, mEvalSkipped, skipOverBudget, w),
			"Judge budget spent for {{ $labels.metric }} on {{ $labels.instance }}",
			"{{ $labels.instance }} skips {{ $value | humanize }} {{ $labels.metric }} evaluations/s as over_budget because a judge or metric budget is spent; {{ $labels.metric }} covers fewer runs until the budget renews."),
		g.op("EvalSidecarJudgeQueueFull", severityWarning,
			fmt.Sprintf("sum by (%s, metric) (rate(%s{reason=%q}[%s])) > 0", inst, mEvalSkipped, skipQueueFull, w),
			"Judge queue full for {{ $labels.metric }} on {{ $labels.instance }}",
			"{{ $labels.instance }} skips {{ $value | humanize }} {{ $labels.metric }} evaluations/s as queue_full: runs arrive faster than the judge answers; sampled runs go unjudged."),
		g.op("EvalSidecarExporterBacklog", severityWarning,
			fmt.Sprintf("min_over_time(%s[%s]) > 0\nand\nderiv(%s[%s]) > 0", mExporterQueue, long, mExporterQueue, long),
			"Exporter {{ $labels.exporter }} on {{ $labels.instance }} falls behind",
			"The {{ $labels.exporter }} queue on {{ $labels.instance }} has not been empty for "+long+" and keeps growing; once full, records are dropped."),
		g.op("EvalSidecarScorerBacklog", severityWarning,
			fmt.Sprintf("min_over_time(%s[%s]) > 0\nand\nderiv(%s[%s]) > 0", mScorerQueue, long, mScorerQueue, long),
			"Scorer on {{ $labels.instance }} falls behind",
			"The scorer queue on {{ $labels.instance }} has not been empty for "+long+" and keeps growing ({{ $value | humanize }} runs/s); once full, runs are dropped unscored."),
		g.op("EvalSidecarSpoolGrowing", severityWarning,
			fmt.Sprintf("%s > 0\nand\nderiv(%s[%s]) > 0", mExporterSpoolBytes, mExporterSpoolBytes, long),
			"Exporter {{ $labels.exporter }} spool grows on {{ $labels.instance }}",
			"The {{ $labels.exporter }} spool on {{ $labels.instance }} has grown for "+long+": the destination is unavailable or slower than the input."),
		g.op("EvalSidecarExporterRetrying", severityWarning,
			fmt.Sprintf("sum by (%s, exporter, stream) (rate(%s{outcome=\"retried\"}[%s]))\n/\nsum by (%s, exporter, stream) (rate(%s{outcome=~\"sent|retried\"}[%s]))\n> %g",
				inst, mExporterRecords, w, inst, mExporterRecords, w, exporterRetryRatio),
			"Exporter {{ $labels.exporter }} retries {{ $labels.stream }} on {{ $labels.instance }}",
			pct+" of the {{ $labels.stream }} records {{ $labels.instance }} tried to write to {{ $labels.exporter }} over the last "+w+" failed and are retried: the destination is down, overloaded or refusing; records wait in the queue and spool until they fill."),
		g.op("EvalSidecarExporterParked", severityWarning,
			fmt.Sprintf("max by (%s, exporter, table) (%s) > 0", inst, mExporterParked),
			"Exporter {{ $labels.exporter }} holds {{ $labels.table }} batches the database refused on {{ $labels.instance }}",
			"{{ $labels.instance }} has held {{ $value | humanize }} {{ $labels.table }} batches for "+forOps+" because {{ $labels.exporter }} refused them for their schema; they are not written (nor dropped, unless max_park_duration is set) until the table is fixed."),
		g.op("EvalSidecarExporterStorageFilling", severityWarning,
			fmt.Sprintf("max by (%s, exporter) (%s) / max by (%s, exporter) (%s) > %g\nor\nmax by (%s, exporter) (%s) / max by (%s, exporter) (%s) > %g",
				inst, mExporterQueue, inst, mExporterQueueCap, exporterFillRatio,
				inst, mExporterSpoolBytes, inst, mExporterSpoolCap, exporterFillRatio),
			"Exporter {{ $labels.exporter }} queue or spool is filling on {{ $labels.instance }}",
			"The {{ $labels.exporter }} queue or spool on {{ $labels.instance }} has been over "+fmt.Sprintf("%g", exporterFillRatio*100)+"% full for "+forOps+" ({{ $value | humanizePercentage }}); once full, records are dropped (EvalSidecarDataDropped)."),
		g.op("EvalSidecarForwardFailing", severityWarning,
			fmt.Sprintf("sum by (%s) (rate(%s{outcome!=\"ok\"}[%s]))\n/\nsum by (%s) (rate(%s[%s]))\n> 0.05",
				inst, mForwardRequests, w, inst, mForwardRequests, w),
			"Forwarding to the upstream collector fails on {{ $labels.instance }}",
			pct+" of the requests {{ $labels.instance }} forwards upstream failed or were dropped over the last "+w+"; the upstream collector misses that data."),
		g.op("EvalSidecarNoTrajectories", severityWarning,
			fmt.Sprintf("sum by (job, service_name) (increase(%s[%s] offset %s)) > 0\nunless\nsum by (job, service_name) (increase(%s[%s])) > 0",
				mTrajectories, silence, silence, mTrajectories, silence),
			"No agent runs from {{ $labels.service_name }} for "+silence,
			"{{ $labels.service_name }} (job {{ $labels.job }}) sent runs in the "+silence+" before but none were evaluated in the last "+silence+": the agent stopped, lost its exporter configuration, or the sidecar no longer recognises its spans."),
		g.op("EvalSidecarLabelOverflow", severityInfo,
			fmt.Sprintf("sum by (%s, label) (increase(%s[%s])) > 0", inst, mLabelOverflow, long),
			"Label {{ $labels.label }} reached its cardinality cap on {{ $labels.instance }}",
			"New values of {{ $labels.label }} are reported as \"other\" on {{ $labels.instance }}; raise exporters.prometheus.max_label_values or reduce the distinct values."),
		g.op("EvalSidecarSeriesBudgetReached", severityInfo,
			fmt.Sprintf("sum by (%s, family) (increase(%s[%s])) > 0", inst, mSeriesOverflow, long),
			"{{ $labels.family }} reached its series budget on {{ $labels.instance }}",
			"New label combinations of {{ $labels.family }} are recorded in its \"other\" row on {{ $labels.instance }}; raise exporters.prometheus.max_series or reduce the combinations of service, version, agent, tool and model."),
		g.op("EvalSidecarTracesSplit", severityWarning,
			fmt.Sprintf("sum by (%s) (rate(%s{reason=\"missing_parent\"}[%s]))\n/\nsum by (%s) (rate(%s{outcome!=\"no_genai\"}[%s]))\n> %g",
				inst, mPartialTraces, w, inst, mAssemblerTraces, w, splitTracesRatio),
			"Traces reach {{ $labels.instance }} in part",
			pct+" of the traces with agent runs that {{ $labels.instance }} released over the last "+w+" held spans whose parent span never arrived: the spans of one trace reach several replicas (route by trace id: docs/scaling.md) and those runs are scored from fragments."),
	}
}

// op builds an operational alert that holds for OpsFor.
func (g ruleGen) op(name, severity, expr, summary, description string) Rule {
	return g.alert(name, expr, dur(g.p.OpsFor), severity, categoryOperational, summary, description)
}

// judgeErrorsHigh fires when more than judgeErrorsRatio of the attempts
// to a judge fail (calls refused by a budget or cancelled by the caller
// are not counted), with at least judgeErrorsMinAttempts attempts in the
// window. The description names the most frequent failure class.
func (g ruleGen) judgeErrorsHigh() Rule {
	w := dur(g.p.RateWindow)
	by := "job, instance, judge, model"
	attempts := fmt.Sprintf("%s{outcome!~%q}", mJudgeRequests, judgeNotAttempts)
	failed := fmt.Sprintf("%s{outcome!~%q}", mJudgeRequests, judgeNotFailures)
	expr := fmt.Sprintf("sum by (%s) (rate(%s[%s]))\n/\nsum by (%s) (rate(%s[%s]))\n> %g\nand on (%s)\nsum by (%s) (increase(%s[%s])) >= %d",
		by, failed, w, by, attempts, w, judgeErrorsRatio, by, by, attempts, w, judgeErrorsMinAttempts)
	top := fmt.Sprintf("topk(1, sum by (outcome) (rate(%s{job=%%q,instance=%%q,judge=%%q,model=%%q,outcome!~%q}[%s])))",
		mJudgeRequests, judgeNotFailures, w)
	class := "{{ with printf `" + top + "` $labels.job $labels.instance $labels.judge $labels.model | query }}{{ . | first | label \"outcome\" }}{{ end }}"
	return g.op("EvalSidecarJudgeErrorsHigh", severityWarning, expr,
		"Judge {{ $labels.judge }} ({{ $labels.model }}) fails on {{ $labels.instance }}",
		"{{ $value | humanizePercentage }} of the attempts to judge {{ $labels.judge }} ({{ $labels.model }}) on {{ $labels.instance }} failed over the last "+w+", most often "+class+"; runs whose calls fail after retries are skipped as judge_error.")
}

// judgeAgreementFor is how long a judge metric's agreement with people
// must stay below its floor: agreement moves only as feedback arrives,
// so a short dip on a few fresh labels does not page.
const judgeAgreementFor = "30m"

// judgeAgreementLow fires when a judge metric's agreement with people
// over its last labelled runs is below the configured floor. The sidecar
// exports the floor labelled with the statistic it applies to (kappa for
// labels, spearman for numbers), so the comparison matches on every
// label: metric, statistic and the scrape target.
func (g ruleGen) judgeAgreementLow() Rule {
	return g.alert("EvalSidecarJudgeAgreementLow",
		fmt.Sprintf("%s\n< %s", mJudgeAgreement, mJudgeAgreementFloor),
		judgeAgreementFor, severityWarning, categoryQuality,
		"Judge metric {{ $labels.metric }} disagrees with people on {{ $labels.instance }}",
		"The {{ $labels.statistic }} of {{ $labels.metric }} against people's feedback on {{ $labels.instance }} is {{ $value | printf \"%.2f\" }}, below its floor (judge.calibration.floor) for "+judgeAgreementFor+": the judge's scores no longer stand in for people's; check the judge prompt, model and the feedback.")
}
