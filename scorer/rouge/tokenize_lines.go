package rouge

import (
	"strings"
	"unicode/utf8"
)

// tokenizeLines numbers the tokens of text with v (Tokenize's tokens,
// unstemmed) and ends every line that has tokens: it finds the tokens
// (see bitmapTokens, or scanTokens for a text holding KELVIN SIGN or İ),
// numbers those of at most eight bytes that the table of v holds (see
// wordTable.lookupSpans), then the others (see numbering.number). It
// also returns extra zeros, allocated with the numbers. sc is scratch
// space.
func tokenizeLines(v *numbering, text string, sc *scratch, extra int) (ids, lines, zeros []int32) {
	// a token and the separator after it take two bytes at least
	most := len(text)/2 + 1
	sc.spans = resize(sc.spans, most)
	sc.ends = resize(sc.ends, most)
	var n, nEnds int
	if strings.Contains(text, "\u212a") || strings.Contains(text, "\u0130") {
		n, nEnds = scanTokens(text, sc.spans, sc.ends)
	} else {
		n, nEnds = bitmapTokens(text, sc)
	}
	// one allocation for the numbers, the line ends and the zeros
	out := make([]int32, n+nEnds+extra)
	ids, lines, zeros = out[:n:n], out[n:n+nEnds:n+nEnds], out[n+nEnds:]
	copy(lines, sc.ends[:nEnds])
	spans := sc.spans[:n]
	left := n
	if v.table != nil {
		left = v.table.lookupSpans(text, spans, ids)
	} else {
		for k := range ids {
			ids[k] = spanOther
		}
	}
	if left > 0 {
		sc.buf = v.number(text, ids, spans, sc.buf)
	}
	return ids, lines, zeros
}

// The numbers wordTable.lookupSpans gives the tokens it leaves to
// numbering.number.
const (
	spanUnknown = -1 // a word the table does not hold
	spanOther   = -2 // a word to look up otherwise
)

// tokenSpan is a token of a text: text[start:end], which may hold ASCII
// capitals, when end >= 0; when end < 0, text[start:^end], which holds
// KELVIN SIGN or İ (see lowerToken).
type tokenSpan struct {
	start, end int
}

// scanTokens writes the tokens of text to spans and the end of every
// line that has tokens, as a count of tokens, to ends, and returns their
// counts; spans and ends must hold len(text)/2+1 each. It reads the text
// a byte at a time.
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
		case classPlain, classUpper:
			for i++; i < len(text) && byteClass[text[i]]&(classPlain|classUpper) != 0; i++ {
			}
		}
		end := i
		if i < len(text) && byteClass[text[i]] == classHigh {
			if i = tokenEnd(text, i); i > end { // KELVIN SIGN or İ goes on or starts a token
				end = ^i
			} else if i == start { // any other non-ASCII character separates
				_, size := utf8.DecodeRuneInString(text[i:])
				i += size
				continue
			}
		}
		spans[n] = tokenSpan{start: start, end: end}
		n++
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
	classSep   = 0 // an ASCII byte outside [a-zA-Z0-9]
	classPlain = 1 // [a-z0-9], kept as it is
	classUpper = 2 // [A-Z], lowercased
	classHigh  = 4 // a byte of a non-ASCII character
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
