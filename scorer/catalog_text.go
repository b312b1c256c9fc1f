package scorer

// textMetrics lists the text-comparison metrics (exact match, BLEU, ROUGE
// and their ADK counterparts).
func textMetrics() []builtin { return nil }
