package rouge

import (
	"math/rand/v2"
	"testing"
)

// lcsLengthDP is the textbook LCS dynamic programme over two rows: the
// oracle for the bit-parallel lcsLength.
func lcsLengthDP(a, b []int32) int {
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}

func TestLCSLengthMatchesDP(t *testing.T) {
	cases := []struct{ a, b []int32 }{
		{nil, nil},
		{[]int32{1}, nil},
		{[]int32{1, 2, 3}, []int32{1, 2, 3}},
		{[]int32{1, 2, 3}, []int32{3, 2, 1}},
		{[]int32{0, 0, 0}, []int32{0, 0}},
		{[]int32{5, 1, 5, 1, 5}, []int32{1, 5, 1, 9, 9, 5}},
	}
	for _, c := range cases {
		if got, want := lcsLength(c.a, c.b), lcsLengthDP(c.a, c.b); got != want {
			t.Errorf("lcsLength(%v, %v) = %d, DP %d", c.a, c.b, got, want)
		}
	}
	// lengths across the 64-bit word boundaries, small and large alphabets
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 63, 64, 65, 127, 128, 129, 200, 300} {
		for _, alpha := range []int32{2, 4, 30, 500} {
			for range 4 {
				a := randomIDs(r, n, alpha)
				b := randomIDs(r, r.IntN(2*n)+1, alpha)
				if got, want := lcsLength(a, b), lcsLengthDP(a, b); got != want {
					t.Fatalf("n=%d alphabet=%d: lcsLength = %d, DP %d", n, alpha, got, want)
				}
				if got, want := lcsLength(b, a), lcsLengthDP(a, b); got != want {
					t.Fatalf("n=%d alphabet=%d swapped: lcsLength = %d, DP %d", n, alpha, got, want)
				}
			}
		}
	}
}

func randomIDs(r *rand.Rand, n int, alpha int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = r.Int32N(alpha)
	}
	return out
}

// fuzzIDs turns a fuzzer's bytes into token ids below alpha.
func fuzzIDs(x []byte, alpha byte) []int32 {
	ids := make([]int32, len(x))
	for i, c := range x {
		ids[i] = int32(c % alpha)
	}
	return ids
}

// FuzzLCSLength checks the bit-parallel LCS against the DP on token lists
// drawn from the fuzzer's bytes (a small alphabet, so matches are many).
func FuzzLCSLength(f *testing.F) {
	f.Add([]byte("abcbdab"), []byte("bdcaba"))
	f.Add(make([]byte, 70), make([]byte, 130))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, b := fuzzIDs(x, 16), fuzzIDs(y, 16)
		if got, want := lcsLength(a, b), lcsLengthDP(a, b); got != want {
			t.Fatalf("lcsLength(%v, %v) = %d, DP %d", a, b, got, want)
		}
	})
}

func BenchmarkLCSLength(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	x, y := randomIDs(r, 200, 120), randomIDs(r, 200, 120)
	b.Run("bits", func(b *testing.B) {
		for b.Loop() {
			lcsLength(x, y)
		}
	})
	b.Run("dp", func(b *testing.B) {
		for b.Loop() {
			lcsLengthDP(x, y)
		}
	})
}

// lcsIndicesDP is rouge-score's _backtrack_norec over the full DP table:
// the oracle for lcsIndices over the bit-parallel rows.
func lcsIndicesDP(a, b []int32, mark []bool) {
	w := len(b) + 1
	t := make([]int32, (len(a)+1)*w)
	for i := 1; i <= len(a); i++ {
		for j := 1; j < w; j++ {
			if a[i-1] == b[j-1] {
				t[i*w+j] = t[(i-1)*w+j-1] + 1
			} else {
				t[i*w+j] = max(t[(i-1)*w+j], t[i*w+j-1])
			}
		}
	}
	i, j := len(a), len(b)
	for i > 0 && j > 0 {
		switch {
		case a[i-1] == b[j-1]:
			mark[i-1] = true
			i--
			j--
		case t[i*w+j-1] > t[(i-1)*w+j]:
			j--
		default:
			i--
		}
	}
}

// checkIndices compares the LCS index marks of the bit-parallel table
// (reusing t) with the DP's on a and b.
func checkIndices(t *testing.T, table *lcsTable, a, b []int32) {
	t.Helper()
	got, want := make([]bool, len(a)), make([]bool, len(a))
	table.fill(a, b)
	lcsIndices(table, a, b, got)
	lcsIndicesDP(a, b, want)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("lcsIndices(%v, %v) = %v, DP %v", a, b, got, want)
		}
	}
	if len(b) <= 64 {
		var l bitLCS
		l.init(b)
		got64 := make([]bool, len(a))
		lcsIndices64(a, b, &l, make([]uint64, 2*(len(a)+1)), got64)
		for i := range got64 {
			if got64[i] != want[i] {
				t.Fatalf("lcsIndices64(%v, %v) = %v, DP %v", a, b, got64, want)
			}
		}
	}
	for i := 0; i <= len(a); i += max(1, len(a)/7) {
		for j := 0; j <= len(b); j += max(1, len(b)/7) {
			if got, want := table.cell(i, j), lcsLengthDP(a[:i], b[:j]); got != want {
				t.Fatalf("cell(%d, %d) of %v, %v = %d, DP %d", i, j, a, b, got, want)
			}
		}
	}
}

func TestLCSIndicesMatchDP(t *testing.T) {
	var table lcsTable // reused, as rougeLsum does
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 5, 63, 64, 65, 130, 200} {
		for _, alpha := range []int32{2, 5, 40, 300} {
			for range 3 {
				checkIndices(t, &table, randomIDs(r, n, alpha), randomIDs(r, r.IntN(2*n)+1, alpha))
			}
		}
	}
}

// FuzzLCSIndices checks the bit-parallel table's LCS indices against the
// DP's.
func FuzzLCSIndices(f *testing.F) {
	f.Add([]byte("abcbdab"), []byte("bdcaba"))
	f.Add(make([]byte, 70), make([]byte, 130))
	var table lcsTable
	f.Fuzz(func(t *testing.T, x, y []byte) {
		checkIndices(t, &table, fuzzIDs(x, 8), fuzzIDs(y, 8))
	})
}
