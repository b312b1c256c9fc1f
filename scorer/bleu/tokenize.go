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
// script are kept.
func Tokenize13a(line string) []string {
	return spanStrings(spans13a(make([]span, 0, len(line)/5+1), line))
}

// span is a token: the bytes from start to end of the text it was read
// from.
type span struct{ start, end int }

// spanStrings returns the tokens sp of text as strings.
func spanStrings(sp []span, text string) []string {
	out := make([]string, len(sp))
	for i, s := range sp {
		out[i] = text[s.start:s.end]
	}
	return out
}

// spans13a appends the 13a tokens of line to dst as spans of line after
// steps 1 and 2, which it returns. Every token is a substring of that
// text, since the substitutions only insert spaces. The rules only test
// ASCII bytes, and a multi-byte character is "not a digit" in every byte,
// so byte-wise matching gives what Python's code-point regexes give;
// whitespace of any kind, like the space, is neither a digit nor '.', ','
// or '-'. A rule's match therefore never spans two pre-tokens, the runs
// between whitespace and padded symbols: each pre-token can be rewritten
// on its own, and one without '.', ',' or '-' is a token as it stands.
func spans13a(dst []span, line string) ([]span, string) {
	line = clean13a(line)
	n := len(line)
	for i := 0; i < n; {
		c := class13a[line[i]]
		if c == cPlain {
			// Most often a pre-token is a run of cPlain bytes ended by
			// an ASCII space, a symbol or the end.
			start := i
			for i++; i < n; i++ {
				if c = class13a[line[i]]; c != cPlain {
					break
				}
			}
			if i == n || c == cSpace || c == cSymbol {
				dst = append(dst, span{start, i})
				if i < n && c == cSpace {
					i++
				}
				continue
			}
			dst, i = preToken13a(dst, line, start, i)
			continue
		}
		switch c {
		case cSpace:
			i++
		case cSymbol:
			dst = append(dst, span{i, i + 1})
			i++
		default:
			dst, i = preToken13a(dst, line, i, i)
		}
	}
	return dst, line
}

// preToken13a appends the tokens of the pre-token of line starting at
// start, whose bytes before i are cPlain, to dst and returns the index
// past it and the whitespace that ends it when that is a multi-byte
// character.
func preToken13a(dst []span, line string, start, i int) ([]span, int) {
	n := len(line)
	dots := 0            // '.' and ',' bytes
	digitHyphen := false // a '-' right after a digit
	skip := 0            // bytes of the multi-byte whitespace ending the pre-token
scan:
	for {
		for i < n && class13a[line[i]] == cPlain {
			i++
		}
		if i == n {
			break
		}
		switch c := line[i]; class13a[c] {
		case cPunct:
			if c != '-' {
				dots++
			} else if i > start && isDigit(line[i-1]) {
				digitHyphen = true
			}
			i++
		case cMultiByte:
			r, size := utf8.DecodeRuneInString(line[i:])
			if isPySpace(r) {
				skip = size
				break scan
			}
			i += size
		default:
			break scan
		}
	}
	end := i
	switch {
	case end == start:
	case dots == 0 && !digitHyphen:
		// no rule matches
		dst = append(dst, span{start, end})
	case dots == 1 && !digitHyphen && (line[end-1] == '.' || line[end-1] == ',') &&
		end-start >= 2 && !isDigit(line[end-2]):
		// The one '.' or ',' ends the word ("days.", "it,"): the first
		// rule splits it off, the others change nothing.
		dst = append(dst, span{start, end - 1}, span{end - 1, end})
	default:
		dst = splitPreToken13a(dst, line[start:end], start)
	}
	return dst, end + skip
}

// Byte classes of the 13a scan.
const (
	cPlain     = iota // part of a pre-token, matched by no rule
	cPunct            // '.', ',' or '-'
	cSpace            // ASCII whitespace
	cSymbol           // a symbol the first rule pads
	cMultiByte        // starts or continues a multi-byte character
)

// class13a classifies bytes for the 13a scan.
var class13a = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = cMultiByte
		case pySpaceASCII[c]:
			t[c] = cSpace
		case symbol13a[c]:
			t[c] = cSymbol
		case c == '.' || c == ',' || c == '-':
			t[c] = cPunct
		}
	}
	return t
}()

// clean13a is steps 1 and 2. A newline is kept: like a space it is
// whitespace and matches none of the later rules.
func clean13a(line string) string {
	if strings.Contains(line, "<skipped>") {
		line = strings.ReplaceAll(line, "<skipped>", "")
	}
	if strings.Contains(line, "-\n") {
		line = strings.ReplaceAll(line, "-\n", "")
	}
	if strings.IndexByte(line, '&') >= 0 {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	return line
}

// splitPreToken13a applies the '.', ',' and '-' rules to one pre-token
// tok, padded with a space on each side as the symbol pass leaves it, and
// appends the resulting tokens as spans of tok shifted by off.
func splitPreToken13a(dst []span, tok string, off int) []span {
	var bufA, bufB [96]byte
	a := append(bufA[:0], ' ')
	a = append(a, tok...)
	a = append(a, ' ')
	b := apply13aRules(a, bufB[:0])
	// b is tok with spaces inserted: its runs of other bytes are the
	// tokens, in tok's order.
	pos, start := 0, -1
	for _, c := range b {
		if c == ' ' {
			if start >= 0 {
				dst = append(dst, span{off + start, off + pos})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = pos
		}
		pos++
	}
	if start >= 0 {
		dst = append(dst, span{off + start, off + pos})
	}
	return dst
}

// apply13aRules applies, in order, the substitutions ([^0-9])([.,]) ->
// "\1 \2 ", ([.,])([^0-9]) -> " \1 \2" and ([0-9])(-) -> "\1 \2 " to a,
// byte by byte and left to right as Python's re.sub does, and returns the
// result in b's storage (a's is used in between).
func apply13aRules(a, b []byte) []byte {
	b = b[:0]
	for i := 0; i < len(a); {
		if i+1 < len(a) && !isDigit(a[i]) && (a[i+1] == '.' || a[i+1] == ',') {
			b = append(b, a[i], ' ', a[i+1], ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}
	a = a[:0]
	for i := 0; i < len(b); {
		if i+1 < len(b) && (b[i] == '.' || b[i] == ',') && !isDigit(b[i+1]) {
			a = append(a, ' ', b[i], ' ', b[i+1])
			i += 2
			continue
		}
		a = append(a, b[i])
		i++
	}
	b = b[:0]
	for i := 0; i < len(a); {
		if i+1 < len(a) && isDigit(a[i]) && a[i+1] == '-' {
			b = append(b, a[i], ' ', '-', ' ')
			i += 2
			continue
		}
		b = append(b, a[i])
		i++
	}
	return b
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
	if sp, text := spansChar(nil, line); len(sp) > 0 {
		return spanStrings(sp, text)
	}
	return nil
}

// spansChar appends the char tokens of line to dst as spans of line,
// which it returns. A byte that is not part of valid UTF-8 is a token of
// its own.
func spansChar(dst []span, line string) ([]span, string) {
	for i := 0; i < len(line); {
		r, size := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(line[i:])
		}
		if !isPySpace(r) {
			dst = append(dst, span{i, i + size})
		}
		i += size
	}
	return dst, line
}

// Fields splits s on runs of whitespace as Python's str.split() with no
// argument does (Go's strings.Fields does not treat U+001C–U+001F as
// whitespace; Python does).
func Fields(s string) []string { return spanStrings(spansFields(make([]span, 0, len(s)/5+1), s)) }

// spansFields appends the fields of s to out as spans of s, which it
// returns.
func spansFields(out []span, s string) ([]span, string) {
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
			out = append(out, span{start, i})
			start = -1
		case !sp && start < 0:
			start = i
		}
		i += size
	}
	if start >= 0 {
		out = append(out, span{start, len(s)})
	}
	return out, s
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
