package rouge

import (
	"math/bits"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/swar"
)

// bitmapTokens is scanTokens for a text that holds neither KELVIN SIGN
// nor İ, where a token is a run of ASCII letters and digits and every
// other byte separates. It reads the text eight bytes at a time into a
// bitmap of its letters and digits (one bit a byte) and takes the tokens
// from the edges of the runs of ones, with loops that make no calls. It
// returns the counts of tokens and line ends written to sc.spans and
// sc.ends, which must hold len(text)/2+1 each.
func bitmapTokens(text string, sc *scratch) (n, nEnds int) {
	words := len(text)/64 + 1 // a bit past the text, which separates
	sc.alnum = resize(sc.alnum, words)
	alnum := sc.alnum
	full := len(text) / 64 // the words read from whole eight-byte loads
	for w := range alnum[:full] {
		var a uint64
		for k := range 8 {
			a |= packHighBits(alnumBytes(swar.Load64(text, 64*w+8*k))) << (8 * k)
		}
		alnum[w] = a
	}
	var a uint64
	for k, at := 0, 64*full; at < len(text); k, at = k+1, at+8 {
		var x uint64
		if at+8 <= len(text) {
			x = swar.Load64(text, at)
		} else {
			for b := len(text) - 1; b >= at; b-- {
				x = x<<8 | uint64(text[b])
			}
		}
		a |= packHighBits(alnumBytes(x)) << (8 * k)
	}
	alnum[full] = a
	spans := sc.spans
	var prev uint64 // whether the byte before the word is a letter or digit
	nStarts, nStops := 0, 0
	for w, a := range alnum {
		shifted := a<<1 | prev
		prev = a >> 63
		starts := a &^ shifted
		alnum[w] = starts // the bitmap of token starts from here on
		for base := 64 * w; starts != 0; starts &= starts - 1 {
			spans[nStarts].start = base + bits.TrailingZeros64(starts)
			nStarts++
		}
		for base, stops := 64*w, shifted&^a; stops != 0; stops &= stops - 1 {
			spans[nStops].end = base + bits.TrailingZeros64(stops)
			nStops++
		}
	}
	n = nStarts
	// a line ends at a newline after the tokens before it, when it has
	// any; the tokens before a byte are the starts before it
	ends := sc.ends
	lineStart, before, counted := 0, 0, 0 // counted: the words of starts in before
	for at := 0; ; at++ {
		nl := strings.IndexByte(text[at:], '\n')
		if nl < 0 {
			break
		}
		at += nl
		for ; counted < at/64; counted++ {
			before += bits.OnesCount64(alnum[counted])
		}
		if now := before + bits.OnesCount64(alnum[counted]&(1<<uint(at%64)-1)); now > lineStart {
			ends[nEnds] = int32(now)
			nEnds++
			lineStart = now
		}
	}
	if n > lineStart { // the end of the text ends the last line
		ends[nEnds] = int32(n)
		nEnds++
	}
	return n, nEnds
}

// packHighBits gathers the high bits of the eight bytes of h into the
// eight low bits of the result, byte k's into bit k: the multiplier moves
// bit 8k to bit 56+k, each product term landing on a bit of its own.
func packHighBits(h uint64) uint64 {
	return (h >> 7 & lowBits) * 0x0102040810204080 >> 56
}

// Byte-wise constants for alnumBytes.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// alnumBytes returns the high bit of each byte of x (eight bytes of
// text) that is an ASCII letter or digit. With the high bit cleared,
// adding 0x80-lo to a byte sets its high bit exactly when it is at least
// lo, without a carry into the next byte; setting 0x20 maps the capitals
// onto the small letters and nothing else onto them.
func alnumBytes(x uint64) uint64 {
	y := x &^ highBits
	z := y | lowBits*0x20
	letter := (z + lowBits*(0x80-'a')) &^ (z + lowBits*(0x80-'z'-1))
	digit := (y + lowBits*(0x80-'0')) &^ (y + lowBits*(0x80-'9'-1))
	return (letter | digit) &^ x & highBits
}
