package ngram

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestGramsNumberEqualGramsAlike checks, on random token sequences over
// a small alphabet, that n-grams of any order get equal numbers exactly
// when their tokens, joined with spaces, are equal, and that the numbers
// are below the size returned.
func TestGramsNumberEqualGramsAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", "ab", "bc"}
	for round := range 200 {
		seqs := make([][]string, 1+rng.IntN(3))
		for k := range seqs {
			seqs[k] = make([]string, rng.IntN(12))
			for i := range seqs[k] {
				seqs[k][i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		var v Vocabulary
		ids := make([][]int32, len(seqs))
		for k, s := range seqs {
			ids[k] = v.IDs(s)
		}
		orders := Grams(ids, v.Len(), 5)
		for n := 1; n <= 5; n++ {
			grams, size := orders[n-1].Seqs, orders[n-1].Size
			byText := map[string]int32{}
			byNumber := map[int32]string{}
			for k, s := range seqs {
				if want := max(len(s)-n+1, 0); len(grams[k]) != want {
					t.Fatalf("round %d, n=%d: %d grams of %q, want %d", round, n, len(grams[k]), s, want)
				}
				for i, g := range grams[k] {
					text := strings.Join(s[i:i+n], " ")
					if g < 0 || int(g) >= size {
						t.Fatalf("round %d: number %d of %q not below %d", round, g, text, size)
					}
					if id, ok := byText[text]; ok && id != g {
						t.Fatalf("round %d: %q numbered %d and %d", round, text, id, g)
					}
					if other, ok := byNumber[g]; ok && other != text {
						t.Fatalf("round %d: %q and %q both numbered %d", round, text, other, g)
					}
					byText[text], byNumber[g] = g, text
				}
			}
		}
	}
}

func TestCounts(t *testing.T) {
	got := Counts([]int32{2, 0, 2, 2}, 4)
	want := []int32{1, 0, 3, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Counts = %v, want %v", got, want)
		}
	}
}
