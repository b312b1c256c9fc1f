package intern

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestStringsNumbersInFirstSeenOrder checks ids against a map oracle over
// inputs that repeat, grow the table and reset it.
func TestStringsNumbersInFirstSeenOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hint  int
		words []string
	}{
		{"empty string is a key", 0, []string{"", "a", "", "a"}},
		{"repeats", 4, []string{"the", "order", "the", "was", "order", "the"}},
		{"grows past the hint", 2, manyWords(5000, 1200)},
		{"long and similar keys", 100, []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab Strings
			for round := range 2 { // the second round runs after Reset
				tab.Reset(tc.hint)
				want := map[string]int32{}
				for i, w := range tc.words {
					id := tab.ID(w)
					if i%2 == 1 {
						id = tab.IDBytes([]byte(w))
					}
					exp, ok := want[w]
					if !ok {
						exp = int32(len(want))
						want[w] = exp
					}
					if id != exp {
						t.Fatalf("round %d: word %d %q: id %d, want %d", round, i, w, id, exp)
					}
					if got := tab.String(id); got != w {
						t.Fatalf("String(%d) = %q, want %q", id, got, w)
					}
				}
				if tab.Len() != len(want) {
					t.Fatalf("Len = %d, want %d", tab.Len(), len(want))
				}
			}
		})
	}
}

// TestIDBytesDoesNotKeepTheBuffer checks that a new string is copied out
// of the caller's buffer.
func TestIDBytesDoesNotKeepTheBuffer(t *testing.T) {
	var tab Strings
	buf := []byte("refund")
	id := tab.IDBytes(buf)
	copy(buf, "XXXXXX")
	if got := tab.String(id); got != "refund" {
		t.Fatalf("String = %q after the buffer changed", got)
	}
	if tab.ID("refund") != id {
		t.Fatal("the same string got another id")
	}
}

func TestKeysNumbersInFirstSeenOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		keys []uint64
	}{
		{"zero is a key", []uint64{0, 1, 0, 1 << 63}},
		{"dense pairs", func() (ks []uint64) {
			for i := range 3000 {
				ks = append(ks, Pair(int32(i%97), int32(i%13)))
			}
			return ks
		}()},
		{"random with repeats", func() (ks []uint64) {
			for range 20000 {
				ks = append(ks, rng.Uint64N(4000)<<20)
			}
			return ks
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab Keys
			for round := range 2 {
				tab.Reset(8)
				want := map[uint64]int32{}
				for i, k := range tc.keys {
					exp, ok := want[k]
					if !ok {
						exp = int32(len(want))
						want[k] = exp
					}
					if id := tab.ID(k); id != exp {
						t.Fatalf("round %d: key %d (%#x): id %d, want %d", round, i, k, id, exp)
					}
				}
				if tab.Len() != len(want) {
					t.Fatalf("Len = %d, want %d", tab.Len(), len(want))
				}
			}
		})
	}
}

func TestPairIsInjective(t *testing.T) {
	seen := map[uint64][2]int32{}
	for _, a := range []int32{0, 1, 2, 1 << 20, 1<<31 - 1} {
		for _, b := range []int32{0, 1, 2, 1 << 20, 1<<31 - 1} {
			k := Pair(a, b)
			if o, ok := seen[k]; ok {
				t.Fatalf("Pair(%d,%d) = Pair(%d,%d)", a, b, o[0], o[1])
			}
			seen[k] = [2]int32{a, b}
		}
	}
}

func manyWords(n, distinct int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("w%d", (i*7919)%distinct)
	}
	return out
}

func BenchmarkStrings(b *testing.B) {
	words := manyWords(400, 120)
	var tab Strings
	b.ReportAllocs()
	for b.Loop() {
		tab.Reset(128)
		for _, w := range words {
			tab.ID(w)
		}
	}
}

func BenchmarkKeys(b *testing.B) {
	var tab Keys
	b.ReportAllocs()
	for b.Loop() {
		tab.Reset(800)
		for i := range 800 {
			tab.ID(Pair(int32(i%120), int32(i%37)))
		}
	}
}
