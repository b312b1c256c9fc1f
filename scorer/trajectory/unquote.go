package trajectory

import (
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// unquote decodes the text between a JSON string's quotes as
// encoding/json's Unmarshal into a string does: escapes are decoded, a
// \u escape of a surrogate that does not pair with the next one becomes
// U+FFFD, and each byte of invalid UTF-8 becomes U+FFFD. On an invalid
// escape it returns the message of the error Unmarshal reports for the
// first one. body must hold no control character nor '"' other than
// right after a backslash, and no backslash as its last byte unless
// that one is escaped (see strSlow).
func unquote(body string) (string, string) {
	b := make([]byte, 0, len(body))
	for r := 0; r < len(body); {
		c := body[r]
		switch {
		case c == '\\':
			e := byteOrQuote(body, r+1)
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := rune(0)
				for k := r + 2; k < r+6; k++ {
					h := byteOrQuote(body, k)
					d, ok := hexDigit(h)
					if !ok {
						return "", invalidChar(h, "in \\u hexadecimal character escape")
					}
					rr = rr<<4 | d
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(body[r:])); dec != unicode.ReplacementChar {
						r += 6
						b = utf8.AppendRune(b, dec)
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default:
				return "", invalidChar(e, "in string escape code")
			}
			r += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRuneInString(body[r:])
			r += size
			b = utf8.AppendRune(b, rr)
		}
	}
	return string(b), ""
}

// byteOrQuote returns s[i], or the closing quote that follows s when i
// is past its end.
func byteOrQuote(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return '"'
}

// hexDigit returns the value of the hexadecimal digit c.
func hexDigit(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10), true
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}

// getu4 decodes the \uXXXX escape at the start of s, or returns -1.
func getu4(s string) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for i := 2; i < 6; i++ {
		d, ok := hexDigit(s[i])
		if !ok {
			return -1
		}
		r = r<<4 | d
	}
	return r
}

// invalidChar returns encoding/json's syntax error message for byte c
// met in the given context.
func invalidChar(c byte, context string) string {
	var q string
	switch c {
	case '\'':
		q = `'\''`
	case '"':
		q = `'"'`
	default:
		s := strconv.Quote(string(rune(c)))
		q = "'" + s[1:len(s)-1] + "'"
	}
	return "invalid character " + q + " " + context
}
