package bleu

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// matches counts, for n = 1..MaxOrder, the n-grams of the hypothesis,
// seqs[0], that are correct: each distinct n-gram up to its highest count
// in one reference (seqs[1:]).
func matches(seqs [][]string) []int {
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
	return ngram.Overlap(ids[0], ids[1:], v.Len(), MaxOrder)
}
