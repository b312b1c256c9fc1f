package redact

import (
	"regexp"
	"slices"
	"strings"
)

// secretDetector finds the values of key=value, key: value and
// "key": "value" pairs whose key names a secret (type secret) or a phone
// number (type phone, for values that look like one even without
// separators), URL passwords and PEM private keys.
type secretDetector struct {
	secrets, phones bool
	prio            int
}

// secretKeySuffixes are the normalised (lower case, no '_', '-' or '.')
// key endings that name a secret.
var secretKeySuffixes = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey",
	"accesskey", "privatekey", "credentials", "privatekeyid", "accountkey",
}

// classifyKey reports whether key names a secret or a phone number (when
// those types are enabled).
func (d secretDetector) classifyKey(key string) (secret, phone bool) {
	var buf [64]byte
	n := 0
	for i := 0; i < len(key) && n < len(buf); i++ {
		c := key[i]
		if c == '_' || c == '-' || c == '.' {
			continue
		}
		buf[n] = lower(c)
		n++
	}
	k := buf[:n]
	if d.secrets && hasSuffix(k, secretKeySuffixes...) {
		return true, false
	}
	return false, d.phones && phoneKey(k)
}

func isKeyByte(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.'
}

// isValueEnd reports whether c ends an unquoted value.
func isValueEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '"', '\'', ',', ';', '}', ']', ')', '&', '<', '>', '\\', '`':
		return true
	}
	return false
}

// keptValue reports values that carry nothing secret or are not values.
func keptValue(v string) bool {
	if v == "" || strings.HasPrefix(v, markerPrefix) || v[0] == '{' || v[0] == '[' {
		return true
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "none", "nil", "undefined":
		return true
	}
	return false
}

func (d secretDetector) find(s string, dst []match) []match {
	for i := 0; i < len(s); i++ {
		if s[i] != ':' && s[i] != '=' {
			continue
		}
		if m, ok := d.pairAt(s, i); ok {
			dst = append(dst, m)
			i = m.end - 1
		}
	}
	if !d.secrets {
		return dst
	}
	dst = urlPasswords.find(s, dst)
	return privateKeys.find(s, dst)
}

// pairAt matches the value of the key-value pair whose separator is s[i],
// when the key names a secret or a phone number and the value is one.
func (d secretDetector) pairAt(s string, i int) (match, bool) {
	key := keyBefore(s, i)
	if key == "" {
		return match{}, false
	}
	secret, phone := d.classifyKey(key)
	if !secret && !phone {
		return match{}, false
	}
	vs, ve, ok := valueAfter(s, i)
	if !ok {
		return match{}, false
	}
	v := s[vs:ve]
	if keptValue(v) {
		return match{}, false
	}
	typ := TypeSecret
	if phone {
		if !phoneValue(v) {
			return match{}, false
		}
		typ = TypePhone
	}
	return match{start: vs, end: ve, typ: typ, prio: d.prio}, true
}

// keyBefore returns the key ending before the separator s[i]: up to 64
// key bytes, then optionally a closing quote (escaped any number of
// times, for JSON inside JSON strings) and spaces or tabs. It returns ""
// when there is no key.
func keyBefore(s string, i int) string {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		j--
		for j > 0 && s[j-1] == '\\' {
			j--
		}
	}
	end := j
	for j > 0 && end-j < 64 && isKeyByte(s[j-1]) {
		j--
	}
	return s[j:end]
}

// valueAfter returns the span of the value after the separator s[i]:
// after optional spaces and an opening quote, up to the matching closing
// quote or, unquoted, up to the first byte that ends a value. ok is false
// for "==", a comparison.
func valueAfter(s string, i int) (start, end int, ok bool) {
	p := i + 1
	if p < len(s) && s[p] == '=' {
		if s[i] == '=' {
			return 0, 0, false
		}
		p++ // ":="
	}
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	q, nb := openingQuote(s, p)
	if q == 0 {
		end = p
		for end < len(s) && !isValueEnd(s[end]) {
			end++
		}
		return p, end, true
	}
	start = p + nb + 1
	if nb > 0 {
		return start, escapedQuoteEnd(s, start, q, nb), true
	}
	return start, quoteEnd(s, start, q), true
}

// openingQuote returns the quote at s[p], escaped by nb backslashes (0 for
// plain text, 1 for JSON inside a JSON string, 3 for one level deeper,
// ...), or q == 0 when no quote opens the value.
func openingQuote(s string, p int) (q byte, nb int) {
	for p+nb < len(s) && s[p+nb] == '\\' {
		nb++
	}
	if p+nb < len(s) && (s[p+nb] == '"' || s[p+nb] == '\'') {
		return s[p+nb], nb
	}
	return 0, 0
}

// quoteEnd returns where a value that starts at vs, after the quote q,
// ends: at the next unescaped q, at a newline or at the end of s.
func quoteEnd(s string, vs int, q byte) int {
	p := vs
	for p < len(s) && s[p] != '\n' && s[p] != q {
		if s[p] == '\\' && p+1 < len(s) {
			p += 2
			continue
		}
		p++
	}
	return p
}

// escapedQuoteEnd returns where a value that starts at vs, after the
// quote q escaped by nb backslashes, ends: before the next q escaped
// exactly as the opening one, at a newline or at the end of s.
func escapedQuoteEnd(s string, vs int, q byte, nb int) int {
	p := vs
	for ; p < len(s) && s[p] != '\n'; p++ {
		if s[p] == q && backslashesBefore(s, vs, p) == nb {
			return p - nb
		}
	}
	return p
}

// backslashesBefore counts the backslashes right before s[i], not looking
// before from.
func backslashesBefore(s string, from, i int) int {
	n := 0
	for i-n-1 >= from && s[i-n-1] == '\\' {
		n++
	}
	return n
}

// phoneKey reports whether a normalised key names a phone number.
func phoneKey(k []byte) bool {
	switch string(k) {
	case "tel", "mobile", "fax", "cell", "msisdn":
		return true
	}
	return hasSuffix(k, "phone", "phonenumber", "telephone", "mobilenumber", "faxnumber")
}

// hasSuffix reports whether k ends with one of suffixes.
func hasSuffix(k []byte, suffixes ...string) bool {
	return slices.ContainsFunc(suffixes, func(suf string) bool {
		return len(k) >= len(suf) && string(k[len(k)-len(suf):]) == suf
	})
}

// phoneValue reports a value made of 7 to 15 digits and phone
// punctuation only.
func phoneValue(v string) bool {
	n := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case isDigit(c):
			n++
		case c == ' ' || c == '-' || c == '.' || c == '(' || c == ')' || c == '+':
		default:
			return false
		}
	}
	return n >= 7 && n <= 15
}

// privateKeys finds PEM private key blocks, whole or cut short.
var privateKeys = regexDetector{
	typ:      TypeSecret,
	prefixes: []string{"-----BEGIN "},
	re:       regexp.MustCompile(`(?s)^-----BEGIN [A-Z ]*PRIVATE KEY-----(?:.*?-----END [A-Z ]*PRIVATE KEY-----|[A-Za-z0-9+/=\s\\]*)`),
}

// urlPasswords finds the password of user:password@host URLs.
var urlPasswords = regexDetector{
	typ:      TypeSecret,
	prefixes: []string{"://"},
	re:       regexp.MustCompile(`^://[^/\s:@"'<>]+:([^/\s@"'<>]+)@`),
	check:    func(v string) bool { return !strings.HasPrefix(v, markerPrefix) },
}
