package text

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the text-comparison metrics (exact match, BLEU, ROUGE and
// their ADK counterparts). They run when configured, on instances with a
// reference.
func Metrics() []scorer.Entry {
	similarity := scorer.Ratio(scorer.HigherIsBetter, "similarity of the response to the reference")
	return []scorer.Entry{
		{Name: MetricExactMatch, New: scorer.NoParams(scorer.Func(MetricExactMatch, scorer.InResponse|scorer.InReference, exactMatch)),
			Semantics: scorer.Ratio(scorer.HigherIsBetter, "1 when the response equals the reference").WithPass(">=", 1)},
		{Name: MetricBLEU, New: newBLEU, Semantics: similarity},
		{Name: MetricRouge, New: newRouge, Semantics: similarity},
		{Name: MetricRouge1, New: fixedRouge(MetricRouge1, "rouge1"), Semantics: similarity},
		{Name: MetricRouge2, New: fixedRouge(MetricRouge2, "rouge2"), Semantics: similarity},
		{Name: MetricRougeL, New: fixedRouge(MetricRougeL, "rougeL"), Semantics: similarity},
		{Name: MetricRougeLSum, New: fixedRouge(MetricRougeLSum, "rougeLsum"), Semantics: similarity},
		// Its pass rule is its threshold parameter (responseMatchScore.Semantics).
		{Name: MetricResponseMatchScore, New: newResponseMatchScore},
	}
}
