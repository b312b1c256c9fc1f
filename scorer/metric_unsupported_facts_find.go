package scorer

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/internal/swar"
)

// scanHot feeds every fact of s to sc.emit, in the order scan does, but
// runs the tokeniser only on the parts of s that can hold a fact, so that
// prose costs about a byte comparison per byte.
//
// A fact needs an ASCII digit or an '@', or is a URL (with "://" or
// "www."). s is split into fields at ASCII blanks and control characters,
// which no word or URL spans. A field is cold when it holds a word, none
// of these marks, and its last word is not a month name: its words emit
// nothing and leave the scanner's date window empty, so that what follows
// a cold field is scanned as scan would, from the rune before it and the
// start-of-line state. Each hot position is scanned within the run of
// non-cold fields around it.
func (sc *factScanner) scanHot(s string) {
	done := 0 // s[:done] is scanned; done is 0 or the end of a field
	for done < len(s) && !sc.stop {
		h := nextHotByte(s, done)
		if h < 0 {
			return
		}
		a := h
		for a > done && s[a-1] > ' ' {
			a--
		}
		for a > done { // extend back over fields that are not cold
			pe := a
			for pe > done && s[pe-1] <= ' ' {
				pe--
			}
			if pe == done {
				break
			}
			ps := pe
			for ps > done && s[ps-1] > ' ' {
				ps--
			}
			if coldField(s[ps:pe]) {
				break
			}
			a = ps
		}
		b := fieldEnd(s, h)
		for b < len(s) { // extend forward over fields that are not cold
			ns := b
			for ns < len(s) && s[ns] <= ' ' {
				ns++
			}
			if ns == len(s) {
				break
			}
			ne := fieldEnd(s, ns)
			if coldField(s[ns:ne]) {
				break
			}
			b = ne
		}
		var prev rune
		if a > 0 {
			prev = rune(s[a-1])
		}
		sc.scanSegment(s[a:b], prev, lineStartAt(s, a))
		done = b
	}
}

// lineStartAt reports whether only blanks and list bullets precede s[i:]
// on its line, as scan tracks it.
func lineStartAt(s string, i int) bool {
	for i--; i >= 0; i-- {
		switch s[i] {
		case '\n':
			return true
		case ' ', '\t', '\r', '-', '*', '#', '>', '+':
		default:
			return false
		}
	}
	return true
}

// coldField reports whether the field f holds at least one word, no ASCII
// digit, '@', ':' or "www.", only ASCII, and ends with a word that is not
// a month name. Such a field emits no fact and, whatever came before it,
// leaves the scanner's date window empty.
func coldField(f string) bool {
	letter, dot := false, false
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c >= utf8.RuneSelf:
			return false
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			letter = true
		case '0' <= c && c <= '@': // digits, ':', ';', '<', '=', '>', '?', '@'
			if c == ':' || c <= '9' || c == '@' {
				return false
			}
		case c == '.':
			dot = true
		}
	}
	if !letter || dot && containsFold(f, "www.") {
		return false
	}
	// The last word: letters, joined by connectors between letters.
	end := len(f)
	for !isASCIILetter(f[end-1]) {
		end--
	}
	start := end - 1
	for start > 0 {
		switch {
		case isASCIILetter(f[start-1]):
			start--
		case start > 1 && isConnector(f[start-1]) && isASCIILetter(f[start-2]):
			start -= 2
		default:
			return monthOf(f[start:end]) == 0
		}
	}
	return monthOf(f[start:end]) == 0
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// Bytes of 8-byte words, for the SWAR search of nextHotByte.
const (
	swarLow  = 0x0101010101010101
	swarHigh = 0x8080808080808080
	swar7F   = 0x7f7f7f7f7f7f7f7f
)

// fieldEnd returns the index of the first blank or control byte (<= ' ')
// at or after i, or len(s), reading 8 bytes at a time.
func fieldEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		x := swar.Load64(s, i)
		// The high bit of the lowest byte below 0x21 is the lowest bit set:
		// a borrow only comes from a lower byte that is below 0x21 itself.
		if m := (x - swarLow*0x21) & ^x & swarHigh; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && s[i] > ' ' {
		i++
	}
	return i
}

// candidateBytes has the high bit of every byte of x from '.' to '@' set,
// and no other bit (bit hacks' hasbetween, exact for each byte).
func candidateBytes(x uint64) uint64 {
	y := x & swar7F
	return (swarLow*(127+0x41) - y) & ^x & (y + swarLow*(127-0x2d)) & swarHigh
}

// nextHotByte returns the index of the first byte at or after i that may
// make a fact, or -1: an ASCII digit, an '@', the ':' of "://" or the '.'
// of "www." (any case). It reads 8 bytes at a time, looking for bytes
// from '.' to '@', and checks those one by one.
func nextHotByte(s string, i int) int {
	for i < len(s) {
		if i+16 <= len(s) {
			if candidateBytes(swar.Load64(s, i))|candidateBytes(swar.Load64(s, i+8)) == 0 {
				i += 16
				continue
			}
		}
		if i+8 <= len(s) {
			m := candidateBytes(swar.Load64(s, i))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) / 8
		} else if c := s[i]; c < '.' || c > '@' {
			i++
			continue
		}
		switch c := s[i]; {
		case '0' <= c && c <= '9', c == '@':
			return i
		case c == ':':
			if strings.HasPrefix(s[i+1:], "//") {
				return i
			}
		case c == '.':
			if i >= 3 && hasPrefixFold(s[i-3:], "www") {
				return i
			}
		}
		i++
	}
	return -1
}

// containsFold reports whether s contains sub, ignoring case: for an
// ASCII sub, ASCII letters of both are lower-cased byte by byte; other
// subs are looked for in s lower-cased by appendLower.
func containsFold(s, sub string) bool {
	if sub == "" {
		return true
	}
	anchor := -1 // a byte of sub that only matches itself, the rarest kind
	rank := 0
	for i := 0; i < len(sub); i++ {
		c := sub[i]
		r := 0
		switch {
		case c >= utf8.RuneSelf:
			return strings.Contains(string(appendLower(nil, s)), sub)
		case 'A' <= c && c <= 'Z':
			return containsFold(s, string(appendLower(nil, sub)))
		case 'a' <= c && c <= 'z':
			continue
		case c == '@' || c == '#' || c == '_':
			r = 4
		case '2' <= c && c <= '9':
			r = 3
		case c == '0' || c == '1':
			r = 2
		default:
			r = 1
		}
		if r > rank {
			anchor, rank = i, r
		}
	}
	if anchor < 0 {
		return containsFoldLetters(s, sub)
	}
	a := sub[anchor]
	for i := anchor; i < len(s); {
		j := strings.IndexByte(s[i:], a)
		if j < 0 {
			return false
		}
		i += j
		if p := i - anchor; p+len(sub) <= len(s) && equalFoldASCII(s[p:p+len(sub)], sub) {
			return true
		}
		i++
	}
	return false
}

// containsFoldLetters is containsFold for a sub of lower-case ASCII
// letters only.
func containsFoldLetters(s, sub string) bool {
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if lowerASCII(s[i]) == first && equalFoldASCII(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// equalFoldASCII reports whether t lower-cased byte by byte (ASCII
// letters only) is sub; len(t) == len(sub).
func equalFoldASCII(t, sub string) bool {
	for j := 0; j < len(sub); j++ {
		if lowerASCII(t[j]) != sub[j] {
			return false
		}
	}
	return true
}
