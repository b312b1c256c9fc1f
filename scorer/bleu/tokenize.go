package bleu

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokenizer names accepted by Options.Tokenizer.
const (
	Tokenizer13a  = "13a"
	TokenizerNone = "none"
	TokenizerChar = "char"
)

// Tokenize13a is sacrebleu's default "13a" tokenizer (mteval-v13a):
//
//  1. remove "<skipped>" and "-\n", turn "\n" into a space;
//  2. when '&' occurs, unescape &quot; &amp; &lt; &gt; in that order;
//  3. pad with spaces and apply, in order, the regex substitutions
//     ([{-~[-` -&(-+:-@/]) -> " \1 ", ([^0-9])([.,]) -> "\1 \2 ",
//     ([.,])([^0-9]) -> " \1 \2" and ([0-9])(-) -> "\1 \2 ";
//  4. split on whitespace as Python's str.split() does.
//
// A period or comma therefore stays attached only between digits
// ("1,000.50"); apostrophes, hyphens between letters and letters of any
// script are kept.
func Tokenize13a(line string) []string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.IndexByte(line, '&') >= 0 {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	// The rules below only test ASCII bytes; a multi-byte character is
	// "not a digit" in every byte, which makes byte-wise matching produce
	// exactly what Python's code-point regexes produce. Each pass copies
	// the stretches no rule can match at once: a rule's match holds a '.',
	// ',' or '-', so only the bytes next to those are tested.
	a := make([]byte, 0, 3*len(line)+2)
	a = append(a, ' ')
	for i := 0; i < len(line); i++ {
		c := line[i]
		if symbol13a[c] {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	a = append(a, ' ')

	// ([^0-9])([.,]) -> "\1 \2 "
	b := make([]byte, 0, len(a)+len(a)/2)
	for i := 0; i < len(a); {
		j := nextPunct(a, i+1, ".,")
		if j < 0 {
			b = append(b, a[i:]...)
			break
		}
		b = append(b, a[i:j-1]...) // no match can start before j-1
		if i = j - 1; !isDigit(a[i]) {
			b = append(b, a[i], ' ', a[j], ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}

	// ([.,])([^0-9]) -> " \1 \2"
	a = a[:0]
	for i := 0; i < len(b); {
		j := nextPunct(b, i, ".,")
		if j < 0 {
			a = append(a, b[i:]...)
			break
		}
		a = append(a, b[i:j]...)
		if i = j; i+1 < len(b) && !isDigit(b[i+1]) {
			a = append(a, ' ', b[i], ' ', b[i+1])
			i += 2
			continue
		}
		a = append(a, b[i])
		i++
	}

	// ([0-9])(-) -> "\1 \2 "
	b = b[:0]
	for i := 0; i < len(a); {
		j := nextPunct(a, i+1, "-")
		if j < 0 {
			b = append(b, a[i:]...)
			break
		}
		b = append(b, a[i:j-1]...)
		if i = j - 1; isDigit(a[i]) {
			b = append(b, a[i], ' ', '-', ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}
	return Fields(string(b))
}

// nextPunct returns the index of the first byte of set in s at or after
// from, or -1.
func nextPunct(s []byte, from int, set string) int {
	if from >= len(s) {
		return -1
	}
	var j int
	if len(set) == 1 {
		j = bytes.IndexByte(s[from:], set[0])
	} else {
		j = bytes.IndexAny(s[from:], set)
	}
	if j < 0 {
		return -1
	}
	return from + j
}

// symbol13a is isSymbol13a as a table.
var symbol13a = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isSymbol13a(byte(c))
	}
	return t
}()

// isSymbol13a is the first 13a character class: space to '&', '(' to
// '+', ':' to '@', '[' to '`', '{' to '~', and '/'.
func isSymbol13a(c byte) bool {
	return c >= ' ' && c <= '&' || c >= '(' && c <= '+' || c >= ':' && c <= '@' ||
		c >= '[' && c <= '`' || c >= '{' && c <= '~' || c == '/'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// TokenizeChar is sacrebleu's "char" tokenizer: every character that is
// not whitespace is a token.
func TokenizeChar(line string) []string {
	var out []string
	for i, r := range line {
		if !isPySpace(r) {
			out = append(out, line[i:i+utf8.RuneLen(r)])
		}
	}
	return out
}

// Fields splits s on runs of whitespace as Python's str.split() with no
// argument does (Go's strings.Fields does not treat U+001C–U+001F as
// whitespace; Python does).
func Fields(s string) []string {
	out := make([]string, 0, len(s)/5+1)
	start := -1 // start of the current field, or -1 between fields
	for i := 0; i < len(s); {
		var sp bool
		size := 1
		if c := s[i]; c < utf8.RuneSelf {
			sp = pySpaceASCII[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			sp = isPySpace(r) // an invalid byte is RuneError: not a space
		}
		switch {
		case sp && start >= 0:
			out = append(out, s[start:i])
			start = -1
		case !sp && start < 0:
			start = i
		}
		i += size
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// pySpaceASCII marks the ASCII bytes Python's str.isspace() holds for:
// \t \n \v \f \r, U+001C–U+001F and the space.
var pySpaceASCII = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true, ' ': true}

// rstrip removes trailing whitespace as Python's str.rstrip() does.
func rstrip(s string) string { return strings.TrimRightFunc(s, isPySpace) }

// isPySpace reports whether Python's str.isspace() holds for r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}
