package rouge

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// scoreNgrams is rouge-score's rougeN (_score_ngrams): the n-grams of
// each side counted, the overlap clipped to the smaller count of each
// n-gram, P = overlap / max(#prediction n-grams, 1) and R = overlap /
// max(#target n-grams, 1).
func scoreNgrams(p Pair, n int) Score {
	overlap := ngram.Overlap(p.prediction.ids, [][]int32{p.target.ids}, p.size(), n)[n-1]
	tn, pn := max(len(p.target.ids)-n+1, 1), max(len(p.prediction.ids)-n+1, 1)
	return newScore(float64(overlap)/float64(pn), float64(overlap)/float64(tn))
}
