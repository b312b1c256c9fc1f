package dashboards

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/vertex"
)

// levelVersionMetric and levelVersionMetricChoice are the levels of the
// pairwise recordings.
const (
	levelVersionMetric       = "service_version_metric"
	levelVersionMetricChoice = "service_version_metric_choice"
)

// pairwiseRecordings turn the pairwise metrics' ratio histograms into
// counts by pairwise_choice and the candidate's win, tie and loss rates,
// per service, candidate release and metric, over the recent window. A
// pairwise score is 0 (BASELINE), 0.5 (TIE) or 1 (CANDIDATE), so the
// le="0" and le="0.5" buckets and the count split the scores exactly; no
// series is added to the exporter. A window without comparisons has no
// rate: its 0/0 is dropped by the "> -1" filter.
func (g ruleGen) pairwiseRecordings() []Rule {
	w := dur(g.p.RecentWindow)
	by := "service_name, service_version, metric"
	sel := fmt.Sprintf(`metric=~"%s.+"`, vertex.PairwisePrefix)
	sum := func(series, extra string) string {
		return fmt.Sprintf("sum by (%s) (increase(%s{%s%s}[%s]))", by, series, sel, extra, w)
	}
	atZero, atHalf, all := sum(mEvalScoreRatio+"_bucket", `,le=~"0|0.0"`), sum(mEvalScoreRatio+"_bucket", `,le="0.5"`), sum(mEvalScoreRatio+"_count", "")
	choices := recordName(levelVersionMetricChoice, "evalsidecar_pairwise_choices", "increase"+w)
	rate := func(choice, name string) Rule {
		return Rule{Record: recordName(levelVersionMetric, "evalsidecar_pairwise_"+name, "ratio"+w),
			Expr: fmt.Sprintf("sum without (choice) (%s{choice=%q}) / sum without (choice) (%s) > -1", choices, choice, choices)}
	}
	return []Rule{
		{Record: choices, Expr: fmt.Sprintf("label_replace(%s, \"choice\", %q, \"\", \"\")\nor\nlabel_replace(%s - %s, \"choice\", %q, \"\", \"\")\nor\nlabel_replace(%s - %s, \"choice\", %q, \"\", \"\")",
			atZero, vertex.ChoiceBaseline, atHalf, atZero, vertex.ChoiceTie, all, atHalf, vertex.ChoiceCandidate)},
		rate(vertex.ChoiceCandidate, "win_rate"),
		rate(vertex.ChoiceTie, "tie_rate"),
		rate(vertex.ChoiceBaseline, "loss_rate"),
	}
}
