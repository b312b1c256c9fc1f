package bleu

import (
	"math/rand/v2"
	"testing"
)

// TestPackedCountsMatchGrams checks the packed n-gram counts against the
// gram maps on random segments with one to three references.
func TestPackedCountsMatchGrams(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	seq := func(n, vocab int) []int32 {
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(r.IntN(vocab))
		}
		return s
	}
	for i := 0; i < 300; i++ {
		vocab := 1 + r.IntN(12)
		h := seq(r.IntN(30), vocab)
		refs := make([][]int32, 1+r.IntN(3))
		for k := range refs {
			refs[k] = seq(r.IntN(30), vocab)
		}
		var got Stats
		packedCounts(&got, h, refs)
		var want Stats
		refMax := make(map[gram]int)
		for _, toks := range refs {
			for g, c := range ngrams(toks) {
				refMax[g] = max(refMax[g], c)
			}
		}
		for g, c := range ngrams(h) {
			want.Total[g.n-1] += c
			want.Correct[g.n-1] += min(c, refMax[g])
		}
		if got != want {
			t.Fatalf("h %v refs %v: packed %+v, grams %+v", h, refs, got, want)
		}
	}
}
