package bleu

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// words writes ids as tokens.
func words(ids []int32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprint(id)
	}
	return out
}

// TestSegmentCountsMatchGrams checks the n-gram counts of SegmentStats
// and SegmentStatsPrepared against the map oracle (oracleStats) on
// random segments of few distinct tokens with one to three references.
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
		want, err := oracleStats(TokenizerNone, hyp, texts)
		if err != nil {
			t.Fatal(err)
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
				t.Fatalf("h %v refs %v: counted %+v, oracle %+v", h, refs, st, want)
			}
		}
	}
}
