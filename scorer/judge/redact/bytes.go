package redact

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isAlpha reports whether c is an ASCII letter.
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlphaRune(r rune) bool { return r < 0x80 && isAlpha(byte(r)) }

// isWord reports whether c is an ASCII letter, digit or underscore, or a
// byte of a multi-byte UTF-8 sequence (so letters of other scripts also
// count as word characters at a boundary).
func isWord(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' || c >= 0x80 }

// lower folds an ASCII letter to lower case.
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// indexFold returns the index of the first ASCII-case-insensitive
// occurrence of the lower-case word w in s at or after from, or -1.
func indexFold(s, w string, from int) int {
	if len(w) == 0 {
		return from
	}
	c0 := w[0]
	for i := from; i+len(w) <= len(s); i++ {
		if lower(s[i]) != c0 {
			continue
		}
		j := 1
		for j < len(w) && lower(s[i+j]) == w[j] {
			j++
		}
		if j == len(w) {
			return i
		}
	}
	return -1
}
