package rouge

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// scoreNgrams is rouge-score's rougeN (_score_ngrams): the n-grams of
// each side counted, the overlap clipped to the smaller count of each
// n-gram, P = overlap / max(#prediction n-grams, 1) and R = overlap /
// max(#target n-grams, 1).
func scoreNgrams(p Pair, n int) Score {
	g := ngram.Grams([][]int32{p.target.ids, p.prediction.ids}, p.size(), n)[n-1]
	overlap := ngram.Take(ngram.Counts(g.Seqs[0], g.Size), g.Seqs[1]) // the target's, the prediction's
	tn, pn := max(len(p.target.ids)-n+1, 1), max(len(p.prediction.ids)-n+1, 1)
	return newScore(float64(overlap)/float64(pn), float64(overlap)/float64(tn))
}
