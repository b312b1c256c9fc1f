package ngram

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOverlapCountsJoinedGrams checks Overlap, on random token sequences
// over alphabets small (many repeated n-grams) and large (few), against
// the textbook count: n-grams as their tokens joined with spaces, the
// hypothesis's count of each clipped to its highest count in one
// reference.
func TestOverlapCountsJoinedGrams(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const maxN = 5
	for round := range 2000 {
		alphabet := []string{"a", "b", "c", "ab", "bc", "ca", "abc", "bca", "cab", "aa", "bb", "cc"}[:2+rng.IntN(11)]
		seqs := make([][]string, 1+rng.IntN(4)) // the hypothesis, then the references
		for k := range seqs {
			seqs[k] = make([]string, rng.IntN(30))
			for i := range seqs[k] {
				seqs[k][i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		var v Vocabulary
		ids := make([][]int32, len(seqs))
		for k, s := range seqs {
			ids[k] = v.IDs(s)
		}
		got := Overlap(ids[0], ids[1:], v.Len(), maxN)
		if unigrams := Overlap(ids[0], ids[1:], v.Len(), 1); unigrams[0] != got[0] {
			t.Fatalf("round %d: Overlap up to order 1 = %v, up to %d = %v", round, unigrams, maxN, got)
		}
		for n := 1; n <= maxN; n++ {
			most := map[string]int{}
			for _, r := range seqs[1:] {
				c := joined(r, n)
				for g, k := range c {
					most[g] = max(most[g], k)
				}
			}
			want := 0
			for g, k := range joined(seqs[0], n) {
				want += min(k, most[g])
			}
			if got[n-1] != want {
				t.Fatalf("round %d, n=%d: Overlap(%q, %q) = %d, want %d", round, n, seqs[0], seqs[1:], got[n-1], want)
			}
		}
	}
}

// joined counts the n-grams of s as their tokens joined with spaces.
func joined(s []string, n int) map[string]int {
	c := map[string]int{}
	for i := 0; i+n <= len(s); i++ {
		c[strings.Join(s[i:i+n], " ")]++
	}
	return c
}

func TestOverlapNoReference(t *testing.T) {
	var v Vocabulary
	hyp := v.IDs([]string{"a", "b"})
	if got := Overlap(hyp, nil, v.Len(), 2); got[0] != 0 || got[1] != 0 {
		t.Fatalf("Overlap without references = %v, want [0 0]", got)
	}
}
