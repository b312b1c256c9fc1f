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

// TestLookupFindsOnlyNumbered checks Lookup against the ids ID gave, on
// zero, reset and grown tables, and that it never adds: a missed word
// stays unnumbered. Readers run at once to let the race detector check
// that a lookup only reads.
func TestLookupFindsOnlyNumbered(t *testing.T) {
	var zs Strings
	if _, ok := zs.Lookup("a"); ok {
		t.Fatal("zero Strings found a word")
	}
	if _, ok := zs.LookupBytes(nil); ok {
		t.Fatal("zero Strings found the empty word")
	}
	var zk Keys
	if _, ok := zk.Lookup(0); ok {
		t.Fatal("zero Keys found a key")
	}
	words := manyWords(3000, 700)
	var s Strings
	s.Reset(4)
	var k Keys
	k.Reset(4)
	for _, w := range words[:300] {
		s.ID(w)
		k.ID(uint64(len(w))<<32 | uint64(w[0]))
	}
	numbered := s.Len()
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for _, w := range words {
				id, ok := s.Lookup(w)
				bid, bok := s.LookupBytes([]byte(w))
				if ok != bok || id != bid {
					t.Errorf("Lookup(%q) = %d %v, LookupBytes = %d %v", w, id, ok, bid, bok)
					return
				}
				if ok && s.String(id) != w {
					t.Errorf("Lookup(%q) = %d, which is %q", w, id, s.String(id))
					return
				}
				if _, kok := k.Lookup(uint64(len(w))<<32 | uint64(w[0])); ok && !kok {
					t.Errorf("key of numbered word %q not found", w)
					return
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
	if s.Len() != numbered {
		t.Fatalf("Len = %d after lookups, want %d", s.Len(), numbered)
	}
	seen := map[string]bool{}
	for _, w := range words[:300] {
		seen[w] = true
	}
	for _, w := range words {
		if _, ok := s.Lookup(w); ok != seen[w] {
			t.Fatalf("Lookup(%q) ok = %v, want %v", w, ok, seen[w])
		}
	}
	if _, ok := k.Lookup(1 << 62); ok {
		t.Fatal("Keys found a key never numbered")
	}
}
