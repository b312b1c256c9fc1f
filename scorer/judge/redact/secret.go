package redact

import (
	"regexp"
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
	"accesskey", "privatekey", "credentials",
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
	if d.secrets {
		for _, suf := range secretKeySuffixes {
			if len(k) >= len(suf) && string(k[len(k)-len(suf):]) == suf {
				return true, false
			}
		}
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
		c := s[i]
		if c != ':' && c != '=' {
			continue
		}
		// The key, before optional spaces and a closing quote.
		j := i
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
			j--
			for j > 0 && s[j-1] == '\\' { // quotes escaped once or more (JSON in JSON)
				j--
			}
		}
		ke := j
		for j > 0 && ke-j < 64 && isKeyByte(s[j-1]) {
			j--
		}
		if j == ke {
			continue
		}
		secret, phone := d.classifyKey(s[j:ke])
		if !secret && !phone {
			continue
		}
		// The value, after optional spaces and an opening quote.
		p := i + 1
		if p < len(s) && s[p] == '=' {
			if c == '=' {
				continue // "==" is a comparison
			}
			p++ // ":="
		}
		for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
			p++
		}
		// An opening quote, escaped by nb backslashes (0 for plain text,
		// 1 for JSON inside a JSON string, 3 for one level deeper, ...).
		var q byte
		nb := 0
		for p+nb < len(s) && s[p+nb] == '\\' {
			nb++
		}
		if p+nb < len(s) && (s[p+nb] == '"' || s[p+nb] == '\'') {
			q = s[p+nb]
			p += nb + 1
		} else {
			nb = 0
		}
		vs := p
		switch {
		case q != 0 && nb > 0:
			// The value ends at the quote escaped exactly as the opening one.
			for p < len(s) && s[p] != '\n' {
				if s[p] == q && backslashesBefore(s, vs, p) == nb {
					p -= nb
					break
				}
				p++
			}
		case q != 0:
			for p < len(s) && s[p] != '\n' && s[p] != q {
				if s[p] == '\\' && p+1 < len(s) {
					p += 2
					continue
				}
				p++
			}
		default:
			for p < len(s) && !isValueEnd(s[p]) {
				p++
			}
		}
		ve := min(p, len(s))
		v := s[vs:ve]
		if keptValue(v) {
			continue
		}
		typ := TypeSecret
		if phone {
			if !d.phones || !phoneValue(v) {
				continue
			}
			typ = TypePhone
		}
		dst = append(dst, match{start: vs, end: ve, typ: typ, prio: d.prio})
		i = ve - 1
	}
	if !d.secrets {
		return dst
	}
	dst = urlPasswords.find(s, dst)
	return privateKeys.find(s, dst)
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
	for _, suf := range []string{"phone", "phonenumber", "telephone", "mobilenumber", "faxnumber"} {
		if len(k) >= len(suf) && string(k[len(k)-len(suf):]) == suf {
			return true
		}
	}
	return false
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
