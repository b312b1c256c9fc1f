package swar

import (
	"encoding/binary"
	"testing"
)

// TestLoadsAreLittleEndian checks the loads against encoding/binary at
// every offset of a text.
func TestLoadsAreLittleEndian(t *testing.T) {
	s := "0123456789abcdef\x00\xff\x80Z"
	for i := 0; i+8 <= len(s); i++ {
		if got, want := Load64(s, i), binary.LittleEndian.Uint64([]byte(s[i:])); got != want {
			t.Errorf("Load64(%d) = %#x, want %#x", i, got, want)
		}
	}
	for n := range 9 {
		want := uint64(0)
		for k := range n {
			want |= 0xff << (8 * k)
		}
		if got := LowBytes(n); got != want {
			t.Errorf("LowBytes(%d) = %#x, want %#x", n, got, want)
		}
	}
	for i := 0; i+4 <= len(s); i++ {
		if got, want := Load32(s, i), binary.LittleEndian.Uint32([]byte(s[i:])); got != want {
			t.Errorf("Load32(%d) = %#x, want %#x", i, got, want)
		}
	}
}
