package text

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the text-comparison metrics (exact match, BLEU, ROUGE and
// their ADK counterparts). They run when configured, on instances with a
// reference.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricExactMatch, New: scorer.NoParams(exactMatch{})},
		{Name: MetricBLEU, New: newBLEU},
		{Name: MetricRouge, New: newRouge},
		{Name: MetricRouge1, New: fixedRouge(MetricRouge1, "rouge1")},
		{Name: MetricRouge2, New: fixedRouge(MetricRouge2, "rouge2")},
		{Name: MetricRougeL, New: fixedRouge(MetricRougeL, "rougeL")},
		{Name: MetricRougeLSum, New: fixedRouge(MetricRougeLSum, "rougeLsum")},
		{Name: MetricResponseMatchScore, New: newResponseMatchScore},
	}
}
