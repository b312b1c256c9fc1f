package rouge

import "strings"

// scoreNgrams is rouge-score's rougeN (_score_ngrams): the n-grams of
// each side counted, the overlap clipped to the smaller count of each
// n-gram, P = overlap / max(#prediction n-grams, 1) and R = overlap /
// max(#target n-grams, 1).
func scoreNgrams(target, prediction []string, n int) Score {
	tc, pc := ngrams(target, n), ngrams(prediction, n)
	overlap := 0
	for g, c := range tc {
		overlap += min(c, pc[g])
	}
	tn, pn := max(len(target)-n+1, 1), max(len(prediction)-n+1, 1)
	return newScore(float64(overlap)/float64(pn), float64(overlap)/float64(tn))
}

// ngrams counts the n-grams of toks, each written as its tokens joined
// by single spaces (no token holds a space).
func ngrams(toks []string, n int) map[string]int {
	// the n-gram from token i is text[start[i] : start[i+n]-1]
	text := strings.Join(toks, " ")
	start := make([]int, len(toks)+1)
	for i, t := range toks {
		start[i+1] = start[i] + len(t) + 1
	}
	m := make(map[string]int, len(toks))
	for i := 0; i+n <= len(toks); i++ {
		m[text[start[i]:start[i+n]-1]]++
	}
	return m
}
