package extractor

import "strings"

// closeJSON turns s, a JSON object or array cut short by truncation, back
// into valid JSON that keeps as much of it as it can: an open string value
// is closed where it was cut (a half escape dropped), and every open
// container is closed; an open key, a number or literal that may be cut,
// and a trailing comma or colon are left out. A long message text cut at
// max_attribute_value_bytes thus stays a message with the text that was
// kept. The result is at most the depth of s plus one byte longer than s.
func closeJSON(s string) string {
	var stack []byte // closers of the open containers
	safe, depth := 0, 0
	inStr, esc, key, expectKey := false, false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
				if !key {
					safe, depth = i+1, len(stack)
				}
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			key = expectKey && len(stack) > 0 && stack[len(stack)-1] == '}'
		case '{', '[':
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			stack = append(stack, closer)
			expectKey = c == '{'
			safe, depth = i+1, len(stack)
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return s // not JSON: leave it as it is
			}
			stack = stack[:len(stack)-1]
			expectKey = false
			safe, depth = i+1, len(stack)
		case ',':
			safe, depth = i, len(stack) // what came before is complete
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '}'
		case ':':
			expectKey = false
		}
	}
	var b strings.Builder
	if inStr && !key {
		cut := len(s)
		if esc {
			cut-- // a lone backslash
		} else if j := strings.LastIndex(s[max(0, cut-5):], `\u`); j >= 0 {
			if k := max(0, cut-5) + j; cut-k < 6 && (k == 0 || s[k-1] != '\\') {
				cut = k // a \u escape without its four digits
			}
		}
		b.Grow(cut + 1 + len(stack))
		b.WriteString(s[:cut])
		b.WriteByte('"')
	} else {
		stack = stack[:depth]
		b.Grow(safe + len(stack))
		b.WriteString(s[:safe])
	}
	for i := len(stack) - 1; i >= 0; i-- {
		b.WriteByte(stack[i])
	}
	return b.String()
}

// isJSONArray reports whether s starts, after white space, as a JSON
// array.
func isJSONArray(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return t != "" && t[0] == '['
}
