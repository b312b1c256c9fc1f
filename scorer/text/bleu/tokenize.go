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
// script are kept. The substitutions only test ASCII bytes, and a
// multi-byte character is "not a digit" in every byte, so applying them
// byte by byte gives what Python's code-point regexes give.
func Tokenize13a(line string) []string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	a := make([]byte, 0, 2*len(line)+2)
	a = append(a, ' ')
	for i := 0; i < len(line); i++ {
		if c := line[i]; isSymbol13a(c) {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	a = append(a, ' ')
	if bytes.ContainsAny(a, ".,") { // both patterns need a '.' or ','
		a = substitute(a, nonDigitThenDotComma)
		a = substitute(a, dotCommaThenNonDigit)
	}
	if bytes.IndexByte(a, '-') >= 0 {
		a = substitute(a, digitThenHyphen)
	}
	return Fields(string(a))
}

// pairPattern is one of the two-character substitutions of 13a.
type pairPattern uint8

// The substitutions, in the order 13a applies them.
const (
	nonDigitThenDotComma pairPattern = iota // ([^0-9])([.,]) -> "\1 \2 "
	dotCommaThenNonDigit                    // ([.,])([^0-9]) -> " \1 \2"
	digitThenHyphen                         // ([0-9])(-) -> "\1 \2 "
)

// matches reports whether x, y match the pattern.
func (p pairPattern) matches(x, y byte) bool {
	switch p {
	case nonDigitThenDotComma:
		return !isDigit(x) && (y == '.' || y == ',')
	case dotCommaThenNonDigit:
		return (x == '.' || x == ',') && !isDigit(y)
	}
	return isDigit(x) && y == '-'
}

// substitute is Python's re.sub with the pattern p: scanning s left to
// right, each pair x, y that matches is replaced ("\1 \2 ", or " \1 \2"
// for dotCommaThenNonDigit), and the scan resumes after the pair.
func substitute(s []byte, p pairPattern) []byte {
	out := make([]byte, 2*len(s)) // each replaced pair grows by two bytes
	n := 0
	for i := 0; i < len(s); {
		if i+1 < len(s) && p.matches(s[i], s[i+1]) {
			if p == dotCommaThenNonDigit {
				out[n], out[n+1], out[n+2], out[n+3] = ' ', s[i], ' ', s[i+1]
			} else {
				out[n], out[n+1], out[n+2], out[n+3] = s[i], ' ', s[i+1], ' '
			}
			n += 4
			i += 2
			continue
		}
		out[n] = s[i]
		n++
		i++
	}
	return out[:n]
}

// isSymbol13a is the first 13a character class: space to '&', '(' to
// '+', ':' to '@', '[' to '`', '{' to '~', and '/'.
func isSymbol13a(c byte) bool {
	return c >= ' ' && c <= '&' || c >= '(' && c <= '+' || c >= ':' && c <= '@' ||
		c >= '[' && c <= '`' || c >= '{' && c <= '~' || c == '/'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// TokenizeChar is sacrebleu's "char" tokenizer: every character that is
// not whitespace is a token. A byte that is not part of valid UTF-8 is a
// token of its own.
func TokenizeChar(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if !isPySpace(r) {
			out = append(out, line[i:i+size])
		}
		i += size
	}
	return out
}

// Fields splits s on runs of whitespace as Python's str.split() with no
// argument does (Go's strings.Fields does not treat U+001C–U+001F as
// whitespace; Python does). It is the "none" tokenizer.
func Fields(s string) []string {
	var out []string
	start := -1 // start of the current field, or -1
	for i := 0; i < len(s); {
		space, size := isASCIISpace(s[i]), 1
		if s[i] >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = isPySpace(r)
		}
		switch {
		case space && start >= 0:
			out = append(out, s[start:i])
			start = -1
		case !space && start < 0:
			start = i
		}
		i += size
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// rstrip removes trailing whitespace as Python's str.rstrip() does.
func rstrip(s string) string { return strings.TrimRightFunc(s, isPySpace) }

// isASCIISpace is isPySpace for a byte below utf8.RuneSelf: '\t' to '\r',
// U+001C to U+001F, and ' '.
func isASCIISpace(c byte) bool {
	return c >= '\t' && c <= '\r' || c >= 0x1c && c <= 0x1f || c == ' '
}

// isPySpace reports whether Python's str.isspace() holds for r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}
