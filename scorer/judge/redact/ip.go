package redact

import (
	"net/netip"
	"strings"
)

// ipDetector finds IPv4 and IPv6 addresses that net/netip accepts.
type ipDetector struct{ prio int }

func (d ipDetector) find(s string, dst []match) []match {
	dst = d.findV4(s, dst)
	if strings.IndexByte(s, ':') >= 0 {
		dst = d.findV6(s, dst)
	}
	return dst
}

// findV4 finds dotted quads not embedded in longer dotted numbers or
// words.
func (d ipDetector) findV4(s string, dst []match) []match {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		if i > 0 && (isWord(s[i-1]) || s[i-1] == '.') {
			for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
				i++
			}
			continue
		}
		p, parts := i, 0
		for parts < 4 {
			q := p
			for q < len(s) && isDigit(s[q]) && q-p < 4 {
				q++
			}
			if q == p {
				break
			}
			parts++
			p = q
			if parts < 4 {
				if p+1 < len(s) && s[p] == '.' && isDigit(s[p+1]) {
					p++
				} else {
					break
				}
			}
		}
		end := p
		if parts == 4 && quadEnds(s, end) {
			if _, err := netip.ParseAddr(s[i:end]); err == nil {
				dst = append(dst, match{start: i, end: end, typ: TypeIP, prio: d.prio})
			}
		}
		i = end
		for i < len(s) && (isDigit(s[i]) || s[i] == '.') {
			i++
		}
	}
	return dst
}

// quadEnds reports whether a dotted quad may end at s[end]: at the end of
// s, or before a byte that neither continues a word nor continues the
// dotted number (".5").
func quadEnds(s string, end int) bool {
	if end >= len(s) {
		return true
	}
	moreDigits := s[end] == '.' && end+1 < len(s) && isDigit(s[end+1])
	return !isWord(s[end]) && !moreDigits
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isV6Byte(c byte) bool { return isHex(c) || c == ':' || c == '.' }

// findV6 finds IPv6 candidates around each colon: runs of hex digits,
// colons and dots with at least two colons.
func (d ipDetector) findV6(s string, dst []match) []match {
	off := 0
	for {
		k := strings.IndexByte(s[off:], ':')
		if k < 0 {
			return dst
		}
		c := off + k
		start := c
		for start > 0 && isV6Byte(s[start-1]) && c-start < 48 {
			start--
		}
		end := c
		for end < len(s) && isV6Byte(s[end]) && end-start < 64 {
			end++
		}
		off = end
		if off == c {
			off = c + 1
		}
		for start < end && (s[start] == '.' || s[start] == ':' && !strings.HasPrefix(s[start:end], "::")) {
			start++
		}
		for end > start && (s[end-1] == '.' || s[end-1] == ':' && !strings.HasSuffix(s[start:end], "::")) {
			end--
		}
		if start > 0 && isWord(s[start-1]) || end < len(s) && isWord(s[end]) {
			continue
		}
		cand := s[start:end]
		if strings.Count(cand, ":") < 2 || !strings.ContainsFunc(cand, func(r rune) bool { return r != ':' }) {
			continue
		}
		addr, err := netip.ParseAddr(cand)
		if err != nil || !addr.Is6() {
			continue
		}
		dst = append(dst, match{start: start, end: end, typ: TypeIP, prio: d.prio})
	}
}
