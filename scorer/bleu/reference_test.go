package bleu

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// gram is an n-gram of token ids, n <= MaxOrder; unused slots are 0.
type gram struct {
	ids [MaxOrder]int32
	n   int
}

// ngrams counts the 1- to 4-grams of ids with a map: the oracle of the
// counts kept in a Reference's n-gram trie.
func ngrams(ids []int32) map[gram]int {
	m := make(map[gram]int, MaxOrder*len(ids))
	for i := range ids {
		var g gram
		for n := 0; n < MaxOrder && i+n < len(ids); n++ {
			g.ids[n] = ids[i+n]
			g.n = n + 1
			m[g]++
		}
	}
	return m
}

// words writes ids as tokens.
func words(ids []int32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprint(id)
	}
	return out
}

// TestSegmentCountsMatchGrams checks the n-gram counts of SegmentStats
// and SegmentStatsPrepared against the gram maps on random segments with
// one to three references.
func TestSegmentCountsMatchGrams(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	seq := func(n, vocab int) []int32 {
		s := make([]int32, n)
		for i := range s {
			s[i] = int32(r.IntN(vocab))
		}
		return s
	}
	b, err := New(Options{Tokenizer: TokenizerNone})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		vocab := 1 + r.IntN(12)
		h := seq(r.IntN(30), vocab)
		refs := make([][]int32, 1+r.IntN(3))
		texts := make([]string, len(refs))
		for k := range refs {
			refs[k] = seq(r.IntN(30), vocab)
			texts[k] = strings.Join(words(refs[k]), " ") + " " // blank when empty: a reference of no tokens
		}
		hyp := strings.Join(words(h), " ")
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
		got, err := b.SegmentStats(hyp, texts)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := b.Prepare(texts...)
		if err != nil {
			t.Fatal(err)
		}
		prep, err := b.SegmentStatsPrepared(hyp, ref)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range []Stats{got, prep} {
			if st.Correct != want.Correct || st.Total != want.Total {
				t.Fatalf("h %v refs %v: counted %+v, grams %+v", h, refs, st, want)
			}
		}
	}
}
