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
// The substitutions only insert spaces, so one pass finds where they cut
// the text of step 2 (a newline left by step 1 is whitespace there):
// each character of the first class, and a '-' right after a digit, is
// a token of its own; so is each '.' or ',' of a run of them, except
// that a run of one between two digits stays in its word ("1,000.50"),
// and the last of a run sticks to a digit after it when the run's length
// is odd exactly when a digit precedes it (the second substitution pairs
// the run from its start, after the character before it unless that is
// a digit, and a character it pairs is followed by a space; the third
// cuts the rest). Apostrophes, hyphens between letters and letters of
// any script are kept. The substitutions only test ASCII bytes, and a
// multi-byte character is "not a digit" in every byte, so reading the
// text byte by byte gives what Python's code-point regexes give.
func Tokenize13a(line string) []string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	toks := make([]string, 0, len(line)/4)
	start := -1              // start of the token being read, or -1
	runStart, runEnd := 0, 0 // the run of '.' and ',' last met
	for i := 0; i < len(line); {
		// space: c is whitespace; before, after: a token ends before c,
		// after c
		c, size := line[i], 1
		space, before, after := false, false, false
		switch {
		case isAlnum(c): // no cut inside a run of ASCII letters and digits
			for i+size < len(line) && isAlnum(line[i+size]) {
				size++
			}
		case c >= utf8.RuneSelf:
			var r rune
			r, size = utf8.DecodeRuneInString(line[i:])
			space = isPySpace(r)
		case isASCIISpace(c):
			space = true
		case isSymbol13a(c), c == '-' && i > 0 && isDigit(line[i-1]):
			before, after = true, true
		case c == '.' || c == ',':
			if i >= runEnd {
				runStart, runEnd = i, i+1
				for runEnd < len(line) && (line[runEnd] == '.' || line[runEnd] == ',') {
					runEnd++
				}
			}
			digitBefore := runStart > 0 && isDigit(line[runStart-1])
			digitAfter := runEnd < len(line) && isDigit(line[runEnd])
			odd := (runEnd-runStart)%2 == 1
			before = runEnd-runStart > 1 || !digitBefore || !digitAfter
			after = i < runEnd-1 || !digitAfter || odd != digitBefore
		}
		if (space || before) && start >= 0 {
			toks = append(toks, line[start:i])
			start = -1
		}
		if !space && start < 0 {
			start = i
		}
		i += size
		if after {
			toks = append(toks, line[start:i])
			start = -1
		}
	}
	if start >= 0 {
		toks = append(toks, line[start:])
	}
	return toks
}

// isSymbol13a is the first 13a character class: space to '&', '(' to
// '+', ':' to '@', '[' to '`', '{' to '~', and '/'.
func isSymbol13a(c byte) bool {
	return c >= ' ' && c <= '&' || c >= '(' && c <= '+' || c >= ':' && c <= '@' ||
		c >= '[' && c <= '`' || c >= '{' && c <= '~' || c == '/'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) }

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

// isASCIISpace is isPySpace for a byte below utf8.RuneSelf: '\t' to '\r',
// U+001C to U+001F, and ' '.
func isASCIISpace(c byte) bool {
	return c >= '\t' && c <= '\r' || c >= 0x1c && c <= 0x1f || c == ' '
}

// isPySpace reports whether Python's str.isspace() holds for r.
func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}
