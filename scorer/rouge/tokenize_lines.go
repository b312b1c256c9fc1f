package rouge

import (
	"math/bits"
	"unicode/utf8"
)

// tokenizeLines numbers the tokens of text with v (Tokenize's tokens,
// unstemmed) and ends every line that has tokens: it finds the tokens
// (see scanTokens), then numbers them (see numbering.number). sc is
// scratch space.
func tokenizeLines(v *numbering, text string, sc *scratch) (ids, lines []int32) {
	// a token and the separator after it take two bytes at least
	most := len(text)/2 + 1
	sc.spans = resize(sc.spans, most)
	sc.ends = resize(sc.ends, most)
	n, nEnds := scanTokens(text, sc.spans, sc.ends)
	// one allocation for the numbers and the line ends
	out := make([]int32, n+nEnds)
	ids, lines = out[:n:n], out[n:]
	copy(lines, sc.ends[:nEnds])
	sc.buf = v.number(text, sc.spans[:n], ids, sc.buf)
	return ids, lines
}

// tokenSpan is a token of a text: text[start:end] when end >= 0, with
// head its first eight bytes (see wordHash) when they were read whole,
// else 0; when end < 0, a token to rewrite (see lowerToken), text[start:^end].
type tokenSpan struct {
	start, end int32
	head       uint64
}

// scanTokens writes the tokens of text to spans and the end of every
// line that has tokens, as a count of tokens, to ends, and returns their
// counts; spans and ends must hold len(text)/2+1 each. A token of
// lowercase ASCII letters and digits, the usual one, is found eight bytes
// at a time.
func scanTokens(text string, spans []tokenSpan, ends []int32) (n, nEnds int) {
	lineStart := 0
	for i := 0; i < len(text); {
		c := text[i]
		start := i
		switch byteClass[c] {
		case classSep:
			if c == '\n' && n > lineStart {
				ends[nEnds] = int32(n)
				nEnds++
				lineStart = n
			}
			i++
			continue
		case classPlain:
			var head uint64
			if i+8 <= len(text) {
				x := load64(text, i)
				if other := ^plainBytes(x) & highBits; other != 0 {
					k := bits.TrailingZeros64(other) / 8
					head = x & (1<<(8*uint(k)) - 1)
					i += k
				} else {
					head = x
					for i += 8; i < len(text) && byteClass[text[i]] == classPlain; i++ {
					}
				}
			} else {
				for i++; i < len(text) && byteClass[text[i]] == classPlain; i++ {
				}
			}
			span := tokenSpan{start: int32(start), end: int32(i), head: head}
			if i < len(text) && byteClass[text[i]] != classSep {
				if end := tokenEnd(text, i); end > i {
					span = tokenSpan{start: int32(start), end: ^int32(end)}
					i = end
				} // else a non-ASCII separator follows
			}
			spans[n] = span
			n++
		case classUpper:
			i = tokenEnd(text, i)
			spans[n] = tokenSpan{start: int32(start), end: ^int32(i)}
			n++
		default:
			if i = tokenEnd(text, i); i > start {
				spans[n] = tokenSpan{start: int32(start), end: ^int32(i)}
				n++
			} else { // any other non-ASCII character separates
				_, size := utf8.DecodeRuneInString(text[i:])
				i += size
			}
		}
	}
	if n > lineStart { // the end of the text ends the last line
		ends[nEnds] = int32(n)
		nEnds++
	}
	return n, nEnds
}

// tokenEnd returns the end of the token that goes on at text[i]: it
// holds ASCII letters and digits, KELVIN SIGN (lowercased to 'k') and
// U+0130 İ, which ends it (its lowercase is "i" + U+0307, and U+0307
// separates); any other character ends it.
func tokenEnd(text string, i int) int {
	for i < len(text) {
		switch c := text[i]; byteClass[c] {
		case classPlain, classUpper:
			i++
		case classSep:
			return i
		default:
			switch r, size := utf8.DecodeRuneInString(text[i:]); r {
			case '\u212a':
				i += size
			case '\u0130':
				return i + size
			default:
				return i
			}
		}
	}
	return i
}

// lowerToken appends to dst the token s (see tokenEnd) as Python's
// str.lower() writes it, without the U+0307 that separates.
func lowerToken(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		switch c := s[i]; byteClass[c] {
		case classUpper:
			dst = append(dst, c+'a'-'A')
			i++
		case classHigh:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == '\u212a' {
				dst = append(dst, 'k')
			} else { // U+0130
				dst = append(dst, 'i')
			}
			i += size
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// The classes of bytes for tokenizing.
const (
	classSep   = iota // an ASCII byte outside [a-zA-Z0-9]
	classPlain        // [a-z0-9], kept as it is
	classUpper        // [A-Z], lowercased
	classHigh         // a byte of a non-ASCII character
)

// byteClass is the class of every byte.
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			t[c] = classPlain
		case c >= 'A' && c <= 'Z':
			t[c] = classUpper
		case c >= utf8.RuneSelf:
			t[c] = classHigh
		}
	}
	return t
}()

// Byte-wise constants for plainBytes.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// plainBytes returns the high bit of each byte of x (eight bytes of
// text) that is in [a-z0-9]: with the high bit cleared, adding 0x80-lo
// to a byte sets its high bit exactly when it is at least lo, without a
// carry into the next byte.
func plainBytes(x uint64) uint64 {
	y := x &^ highBits
	atLeastA := y + lowBits*(0x80-'a')
	pastZ := y + lowBits*(0x80-'z'-1)
	atLeast0 := y + lowBits*(0x80-'0')
	past9 := y + lowBits*(0x80-'9'-1)
	return (atLeastA&^pastZ | atLeast0&^past9) &^ x & highBits
}

// load64 returns the eight bytes of s at i, little-endian.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
