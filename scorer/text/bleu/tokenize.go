package bleu

import (
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
	// ([^0-9])([.,]) -> "\1 \2 "
	a = substitute(a, func(x, y byte) bool { return !isDigit(x) && (y == '.' || y == ',') },
		func(dst []byte, x, y byte) []byte { return append(dst, x, ' ', y, ' ') })
	// ([.,])([^0-9]) -> " \1 \2"
	a = substitute(a, func(x, y byte) bool { return (x == '.' || x == ',') && !isDigit(y) },
		func(dst []byte, x, y byte) []byte { return append(dst, ' ', x, ' ', y) })
	// ([0-9])(-) -> "\1 \2 "
	a = substitute(a, func(x, y byte) bool { return isDigit(x) && y == '-' },
		func(dst []byte, x, y byte) []byte { return append(dst, x, ' ', y, ' ') })
	return Fields(string(a))
}

// substitute is Python's re.sub with a pattern of two characters:
// scanning s left to right, each pair x, y that match accepts is replaced
// by what with appends for it, and the scan resumes after the pair.
func substitute(s []byte, match func(x, y byte) bool, with func(dst []byte, x, y byte) []byte) []byte {
	out := make([]byte, 0, len(s)+len(s)/2)
	for i := 0; i < len(s); {
		if i+1 < len(s) && match(s[i], s[i+1]) {
			out = with(out, s[i], s[i+1])
			i += 2
			continue
		}
		out = append(out, s[i])
		i++
	}
	return out
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
func Fields(s string) []string { return strings.FieldsFunc(s, isPySpace) }

// rstrip removes trailing whitespace as Python's str.rstrip() does.
func rstrip(s string) string { return strings.TrimRightFunc(s, isPySpace) }

// isPySpace reports whether Python's str.isspace() holds for r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}
