package bleu

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// numbered holds the n-grams of one order of several token sequences as
// numbers: equal n-grams, of any of the sequences, get equal numbers.
type numbered struct {
	seqs [][]int32 // seqs[k] numbers the n-grams of sequence k, in order
	size int       // every number is below it
}

// ngramsOf numbers the n-grams of seqs by order: grams[n-1] holds the
// n-grams, n = 1..MaxOrder.
func ngramsOf(seqs [][]string) (grams [MaxOrder]numbered) {
	var v ngram.Vocabulary
	ids := make([][]int32, len(seqs))
	for k, s := range seqs {
		ids[k] = v.IDs(s)
	}
	grams[0] = numbered{seqs: ids, size: v.Len()}
	for n := 1; n < MaxOrder; n++ {
		longer, size := ngram.Longer(ids, grams[n-1].seqs, n)
		grams[n] = numbered{seqs: longer, size: size}
	}
	return grams
}

// clippedMatches counts the n-grams of the hypothesis, seqs[0], that are
// correct: each distinct n-gram up to its highest count in one reference
// (seqs[1:]).
func clippedMatches(g numbered) int {
	left := make([]int32, g.size) // the highest reference count not yet used
	for _, ref := range g.seqs[1:] {
		for i, c := range ngram.Counts(ref, g.size) {
			left[i] = max(left[i], c)
		}
	}
	n := 0
	for _, id := range g.seqs[0] {
		if left[id] > 0 {
			left[id]--
			n++
		}
	}
	return n
}
