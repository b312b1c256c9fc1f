package redact

import "strings"

// emailDetector finds e-mail addresses: local@domain.tld.
type emailDetector struct{ prio int }

func isLocalByte(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

func isDomainByte(c byte) bool { return isAlpha(c) || isDigit(c) || c == '.' || c == '-' }

func (d emailDetector) find(s string, dst []match) []match {
	off := 0
	for {
		i := strings.IndexByte(s[off:], '@')
		if i < 0 {
			return dst
		}
		at := off + i
		off = at + 1
		start := at
		for start > 0 && at-start < 64 && isLocalByte(s[start-1]) {
			start--
		}
		for start < at && s[start] == '.' {
			start++
		}
		if start == at || inURLUserInfo(s, start) {
			continue
		}
		end := at + 1
		for end < len(s) && end-at < 256 && isDomainByte(s[end]) {
			end++
		}
		for end > at+1 && (s[end-1] == '.' || s[end-1] == '-') {
			end--
		}
		domain := s[at+1 : end]
		dot := strings.LastIndexByte(domain, '.')
		if tld := domain[dot+1:]; dot <= 0 || len(tld) < 2 || strings.ContainsFunc(tld, func(r rune) bool { return !isAlphaRune(r) }) {
			continue
		}
		dst = append(dst, match{start: start, end: end, typ: TypeEmail, prio: d.prio})
		off = end
	}
}

// inURLUserInfo reports whether the text before start is the
// "scheme://user:" of a URL, so that what follows is a password, not an
// e-mail address.
func inURLUserInfo(s string, start int) bool {
	if start == 0 || s[start-1] != ':' {
		return false
	}
	for i := start - 2; i >= 2 && start-i < 256; i-- {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '"', '\'', '<', '>':
			return false
		case '/':
			return s[i-1] == '/' && s[i-2] == ':'
		}
	}
	return false
}
