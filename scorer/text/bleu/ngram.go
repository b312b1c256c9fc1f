package bleu

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// ngramsOf numbers the n-grams of seqs by order: grams[n-1] holds the
// n-grams, n = 1..MaxOrder.
func ngramsOf(seqs [][]string) []ngram.Order {
	var v ngram.Vocabulary
	total := 0
	for _, s := range seqs {
		total += len(s)
	}
	flat := make([]int32, 0, total) // the numbers of every sequence
	ids := make([][]int32, len(seqs))
	for k, s := range seqs {
		start := len(flat)
		flat = v.AppendIDs(flat, s)
		ids[k] = flat[start:len(flat):len(flat)]
	}
	return ngram.Grams(ids, v.Len(), MaxOrder)
}

// clippedMatches counts the n-grams of the hypothesis, g.Seqs[0], that
// are correct: each distinct n-gram up to its highest count in one
// reference (g.Seqs[1:]).
func clippedMatches(g ngram.Order) int {
	left := ngram.Counts(g.Seqs[1], g.Size) // the highest reference count not yet used
	for _, ref := range g.Seqs[2:] {
		for i, c := range ngram.Counts(ref, g.Size) {
			left[i] = max(left[i], c)
		}
	}
	return ngram.Take(left, g.Seqs[0])
}
