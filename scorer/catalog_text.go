package scorer

// textMetrics lists the text-comparison metrics (exact match, BLEU, ROUGE
// and their ADK counterparts).
func textMetrics() []builtin {
	return []builtin{
		{MetricExactMatch, noParams(exactMatch{})},
		{MetricBLEU, newBLEU},
		{MetricRouge, newRouge},
		{MetricRouge1, fixedRouge(MetricRouge1, "rouge1")},
		{MetricRouge2, fixedRouge(MetricRouge2, "rouge2")},
		{MetricRougeL, fixedRouge(MetricRougeL, "rougeL")},
		{MetricRougeLSum, fixedRouge(MetricRougeLSum, "rougeLsum")},
		{MetricResponseMatchScore, newResponseMatchScore},
	}
}
