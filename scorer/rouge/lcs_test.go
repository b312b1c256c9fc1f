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

// FuzzLCSLength checks the bit-parallel LCS against the DP on token lists
// drawn from the fuzzer's bytes (a small alphabet, so matches are many).
func FuzzLCSLength(f *testing.F) {
	f.Add([]byte("abcbdab"), []byte("bdcaba"))
	f.Add(make([]byte, 70), make([]byte, 130))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		a, b := make([]int32, len(x)), make([]int32, len(y))
		for i, c := range x {
			a[i] = int32(c % 16)
		}
		for i, c := range y {
			b[i] = int32(c % 16)
		}
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
