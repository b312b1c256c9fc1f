// Package truncate shortens text to a byte budget without splitting a
// UTF-8 sequence.
package truncate

import "unicode/utf8"

// String returns s cut to at most n bytes, on a rune boundary: s itself
// when it fits, "" when n <= 0.
func String(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Ellipsis returns s when it fits in n bytes, else its longest prefix on
// a rune boundary that leaves room for "…", followed by "…": at most n
// bytes either way.
func Ellipsis(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return String(s, n-len("…")) + "…"
}
