package extractor

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/internal/swar"
)

// scanner reads one JSON text in a single pass, validating as it goes:
// the fast readers take the raw tokens they need from it while it checks
// the whole text, instead of validating first and walking the text again.
// It accepts exactly what gjson.Valid accepts (RFC 8259 JSON, no UTF-8
// check), up to maxScanDepth levels of nesting; anything it does not
// accept makes the caller decline, so the struct decoder decides.
type scanner struct {
	s     string
	i     int
	depth int
}

// maxScanDepth bounds the nesting the scanner follows; deeper input is
// declined (the struct decoder then reads it, or rejects it).
const maxScanDepth = 512

// SWAR constants: one in every byte, and every byte's high bit.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// ws skips JSON whitespace.
func (p *scanner) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// at reports whether the next byte is c.
func (p *scanner) at(c byte) bool { return p.i < len(p.s) && p.s[p.i] == c }

// special marks, in the high bit of each byte, the bytes of x that end a
// run of plain string bytes: '"', '\\' and control bytes. The lowest
// marked byte is always a true one.
func special(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	b := x ^ (swarOnes * '\\')
	return ((x-swarOnes*0x20)&^x | (q-swarOnes)&^q | (b-swarOnes)&^b) & swarHigh
}

// str reads the string at p.i (which is '"'), leaving p.i after its
// closing quote. esc reports whether it holds escapes.
func (p *scanner) str() (esc, ok bool) {
	s := p.s
	i := p.i + 1
	for {
		for i+8 <= len(s) {
			m := special(swar.Load64(s, i))
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			return esc, false
		}
		switch c := s[i]; {
		case c == '"':
			p.i = i + 1
			return esc, true
		case c == '\\':
			esc = true
			i++
			if i >= len(s) {
				return esc, false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if i+4 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) {
					return esc, false
				}
				i += 5
			default:
				return esc, false
			}
		case c < 0x20:
			return esc, false
		default:
			i++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number reads a number at p.i.
func (p *scanner) number() bool {
	s, i := p.s, p.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	p.i = i
	return true
}

// literal reads word (true, false or null) at p.i.
func (p *scanner) literal(word string) bool {
	if !strings.HasPrefix(p.s[p.i:], word) {
		return false
	}
	p.i += len(word)
	return true
}

// value reads any value at p.i (after whitespace).
func (p *scanner) value() bool {
	if p.i >= len(p.s) {
		return false
	}
	switch p.s[p.i] {
	case '"':
		_, ok := p.str()
		return ok
	case '{':
		return p.object()
	case '[':
		return p.array()
	case 't':
		return p.literal("true")
	case 'f':
		return p.literal("false")
	case 'n':
		return p.literal("null")
	}
	return p.number()
}

// open consumes the '{' or '[' at p.i and the whitespace after it. empty
// reports that the closing byte followed (and was consumed too).
func (p *scanner) open(closing byte) (empty, ok bool) {
	p.depth++
	if p.depth > maxScanDepth {
		return false, false
	}
	p.i++
	p.ws()
	if p.at(closing) {
		p.i++
		p.depth--
		return true, true
	}
	return false, true
}

// next is called after a member or element: it consumes the whitespace
// and the ',' (more) or the closing byte that follows.
func (p *scanner) next(closing byte) (more, ok bool) {
	p.ws()
	if p.i >= len(p.s) {
		return false, false
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		p.ws()
		return true, true
	case closing:
		p.i++
		p.depth--
		return false, true
	}
	return false, false
}

// key reads a member's key and the ':' after it, leaving p.i at the value.
// esc reports an escaped key.
func (p *scanner) key() (k string, esc, ok bool) {
	if !p.at('"') {
		return "", false, false
	}
	start := p.i
	if esc, ok = p.str(); !ok {
		return "", esc, false
	}
	k = p.s[start+1 : p.i-1]
	p.ws()
	if !p.at(':') {
		return "", esc, false
	}
	p.i++
	p.ws()
	return k, esc, true
}

// object reads an object at p.i.
func (p *scanner) object() bool {
	empty, ok := p.open('}')
	if !ok || empty {
		return ok
	}
	for {
		if _, _, ok := p.key(); !ok || !p.value() {
			return false
		}
		more, ok := p.next('}')
		if !ok {
			return false
		}
		if !more {
			return true
		}
	}
}

// array reads an array at p.i.
func (p *scanner) array() bool {
	empty, ok := p.open(']')
	if !ok || empty {
		return ok
	}
	for {
		if !p.value() {
			return false
		}
		more, ok := p.next(']')
		if !ok {
			return false
		}
		if !more {
			return true
		}
	}
}

// end reports whether only whitespace is left.
func (p *scanner) end() bool {
	p.ws()
	return p.i == len(p.s)
}

// scanValid reports whether s is one JSON value (with surrounding
// whitespace) the scanner accepts.
func scanValid(s string) bool {
	p := scanner{s: s}
	p.ws()
	return p.value() && p.end()
}

// fieldIndex finds key k among names: its index when it is one of them,
// -1 when it is none. ok is false when k matches a name only when case is
// ignored: the struct decoder folds case, so such input is declined.
func fieldIndex(names []string, k string) (int, bool) {
	for i, n := range names {
		if k == n {
			return i, true
		}
		// names are lower-case ASCII: an ASCII first byte that is not the
		// same letter in either case cannot fold to n
		if k != "" && k[0] < utf8.RuneSelf && k[0]|0x20 != n[0] {
			continue
		}
		if strings.EqualFold(k, n) {
			return -1, false
		}
	}
	return -1, true
}

// token reads any value at p.i, like value; esc reports a string holding
// escapes.
func (p *scanner) token() (esc, ok bool) {
	if p.at('"') {
		return p.str()
	}
	return false, p.value()
}

// fields reads the object at p.i, setting vals[i] to the raw token of the
// member named names[i] ("" when absent); bit i of esc is set when that
// token is a string holding escapes. It declines (ok false) escaped,
// repeated and case-variant keys: the struct decoder folds case and keeps
// the last of repeated keys.
func (p *scanner) fields(names, vals []string) (esc uint, ok bool) {
	for i := range vals {
		vals[i] = ""
	}
	if !p.at('{') {
		return 0, false
	}
	empty, ok := p.open('}')
	if !ok || empty {
		return 0, ok
	}
	for {
		f, ok := p.member(names)
		if !ok {
			return 0, false
		}
		start := p.i
		e, ok := p.token()
		if !ok || !setField(vals, f, p.s[start:p.i]) {
			return 0, false
		}
		if e && f >= 0 {
			esc |= 1 << f
		}
		more, ok := p.next('}')
		if !ok || !more {
			return esc, ok
		}
	}
}

// member reads a member's key and the ':' after it, returning the key's
// index in names (-1 for none). It declines escaped and case-variant keys.
func (p *scanner) member(names []string) (int, bool) {
	k, esc, ok := p.key()
	if !ok || esc {
		return -1, false
	}
	return fieldIndex(names, k)
}

// setField records raw as field f's token (nothing for f == -1); a
// repeated field declines.
func setField(vals []string, f int, raw string) bool {
	if f < 0 {
		return true
	}
	if vals[f] != "" {
		return false
	}
	vals[f] = raw
	return true
}

// message is fields for a message object (messageNames): its parts member
// must be a non-empty array of part objects, which are read (with pv as
// scratch) and appended to parts in the same pass. The result is parts
// with those appended, and the escaped-string bits of vals as fields sets
// them.
func (p *scanner) message(vals []string, pv *[len(partNames)]string, parts []part) ([]part, uint, bool) {
	for i := range vals {
		vals[i] = ""
	}
	if !p.at('{') {
		return parts, 0, false
	}
	empty, ok := p.open('}')
	if !ok || empty {
		return parts, 0, ok
	}
	var esc uint
	for {
		f, ok := p.member(messageNames[:])
		if !ok {
			return parts, 0, false
		}
		start := p.i
		e := false
		if f == mParts {
			parts, ok = p.parts(pv, parts)
		} else {
			e, ok = p.token()
		}
		if !ok || !setField(vals, f, p.s[start:p.i]) {
			return parts, 0, false
		}
		if e && f >= 0 {
			esc |= 1 << f
		}
		more, ok := p.next('}')
		if !ok || !more {
			return parts, esc, ok
		}
	}
}

// parts reads a message's parts array at p.i, appending each part to
// parts. An empty list declines: the struct decoder reads it as an
// OpenAI-style message.
func (p *scanner) parts(pv *[len(partNames)]string, parts []part) ([]part, bool) {
	if !p.at('[') {
		return parts, false
	}
	empty, ok := p.open(']')
	if !ok || empty {
		return parts, false
	}
	for {
		esc, ok := p.fields(partNames[:], pv[:])
		if !ok {
			return parts, false
		}
		parts = append(parts, partFrom(pv[:], esc))
		more, ok := p.next(']')
		if !ok {
			return parts, false
		}
		if !more {
			return parts, true
		}
	}
}
