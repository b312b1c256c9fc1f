package bleu

import "strings"

// ngramsOf returns the n-grams of toks by order: grams[n-1] holds every
// n-gram in order, written as its tokens joined by single spaces (no
// token holds a space).
func ngramsOf(toks []string) (grams [MaxOrder][]string) {
	// the n-gram from token i is text[start[i] : start[i+n]-1]
	text := strings.Join(toks, " ")
	start := make([]int, len(toks)+1)
	for i, t := range toks {
		start[i+1] = start[i] + len(t) + 1
	}
	for n := 1; n <= MaxOrder; n++ {
		grams[n-1] = make([]string, 0, max(len(toks)-n+1, 0))
		for i := 0; i+n <= len(toks); i++ {
			grams[n-1] = append(grams[n-1], text[start[i]:start[i+n]-1])
		}
	}
	return grams
}

// countNgrams counts the n-grams of toks by order.
func countNgrams(toks []string) (counts [MaxOrder]map[string]int) {
	for n, grams := range ngramsOf(toks) {
		counts[n] = make(map[string]int, len(grams))
		for _, g := range grams {
			counts[n][g]++
		}
	}
	return counts
}
