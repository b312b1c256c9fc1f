package rouge

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// scoreNgrams is rouge-score's rougeN (_score_ngrams): the n-grams of
// each side counted, the overlap clipped to the smaller count of each
// n-gram, P = overlap / max(#prediction n-grams, 1) and R = overlap /
// max(#target n-grams, 1).
func scoreNgrams(p Pair, n int) Score {
	toks := [][]int32{p.target.ids, p.prediction.ids}
	target, prediction, size := toks[0], toks[1], p.size()
	for k := 1; k < n; k++ {
		var longer [][]int32
		longer, size = ngram.Longer(toks, [][]int32{target, prediction}, k)
		target, prediction = longer[0], longer[1]
	}
	// each prediction n-gram counts while the target's count of it is not
	// used up: min(target count, prediction count) in all
	left := ngram.Counts(target, size)
	overlap := 0
	for _, g := range prediction {
		if left[g] > 0 {
			left[g]--
			overlap++
		}
	}
	tn, pn := max(len(p.target.ids)-n+1, 1), max(len(p.prediction.ids)-n+1, 1)
	return newScore(float64(overlap)/float64(pn), float64(overlap)/float64(tn))
}
