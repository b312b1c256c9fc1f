package extractor

import (
	"encoding/binary"
	"strings"
)

// maxJSONDepth is the nesting encoding/json accepts: a text with more
// arrays and objects open at once is not valid JSON to it.
const maxJSONDepth = 10000

// scanner reads one JSON text in a single pass, checking its syntax as it
// goes, and hands its callers the raw text of the values they ask for, as
// substrings of the input. It accepts exactly the texts encoding/json.Valid
// accepts, the nesting bound included. Like encoding/json it does not check
// the bytes of strings for UTF-8; rawString replaces invalid bytes when it
// decodes a string, as encoding/json does. Any failure is a syntax error,
// after which the caller drops the whole text, as json.Unmarshal does.
//
// The readers of the message attributes (messagescan.go) decode with it into
// the wire types exactly as json.Unmarshal decodes into them: keys match
// field names exactly or else under Unicode case folding, a repeated key
// decodes into what the field already holds, and a value of a type the
// field cannot hold leaves the field as it was and sets mismatch (what
// json.Unmarshal reports as an UnmarshalTypeError).
type scanner struct {
	s        string
	i        int
	depth    int
	mismatch bool
}

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

// str reads the string at p.i (which is '"'), leaving p.i after its
// closing quote.
func (p *scanner) str() bool {
	s, i := p.s, p.i+1
	q := -1 // the next '"' at or after i
	for {
		if q < i {
			j := strings.IndexByte(s[i:], '"')
			if j < 0 {
				return false
			}
			q = i + j
		}
		k := strings.IndexByte(s[i:q], '\\')
		if k < 0 {
			k = q - i
		}
		if hasControl(s[i : i+k]) {
			return false
		}
		if i += k; i == q {
			p.i = q + 1
			return true
		}
		// an escape
		switch s[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+5 >= len(s) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) || !isHex(s[i+5]) {
				return false
			}
			i += 6
		default:
			return false
		}
	}
}

// hasControl reports whether s holds a control byte, which JSON strings
// must escape. Every string of every message crosses it, so it tests
// eight bytes in one word, and four words per step (a byte loop was a
// tenth of the hot path, one word per step 3%): (x - 0x20 in every byte)
// &^ x has a byte's top bit set only if some byte of x, that one or one
// below it, is under 0x20 (the borrow only spreads upwards from a byte
// that is), so the test is exact.
func hasControl(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	under := func(x uint64) uint64 { return (x - 0x20*ones) &^ x }
	i := 0
	for ; i+32 <= len(s); i += 32 {
		if (under(word(s, i))|under(word(s, i+8))|under(word(s, i+16))|under(word(s, i+24)))&highs != 0 {
			return true
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if under(word(s, i))&highs != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		if s[i] < 0x20 {
			return true
		}
	}
	return false
}

// word reads the eight bytes of s at i as a little-endian word.
func word(s string, i int) uint64 {
	return binary.LittleEndian.Uint64([]byte(s[i : i+8]))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits skips the digits at i.
func digits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// number reads the number at p.i.
func (p *scanner) number() bool {
	s, i := p.s, p.i
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		if i++; i >= len(s) || !isDigit(s[i]) {
			return false
		}
		i = digits(s, i)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i++; i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return false
		}
		i = digits(s, i)
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

// value reads the value at p.i.
func (p *scanner) value() bool {
	if p.i >= len(p.s) {
		return false
	}
	switch p.s[p.i] {
	case '"':
		return p.str()
	case '{':
		return p.fields(nil, nil)
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
	if p.depth++; p.depth > maxJSONDepth {
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
// An escaped key is decoded.
func (p *scanner) key() (string, bool) {
	if !p.at('"') {
		return "", false
	}
	start := p.i
	if !p.str() {
		return "", false
	}
	k := p.s[start+1 : p.i-1]
	if strings.IndexByte(k, '\\') >= 0 {
		k = rawString(rawJSON(p.s[start:p.i]))
	}
	p.ws()
	if !p.at(':') {
		return "", false
	}
	p.i++
	p.ws()
	return k, true
}

// array reads the array at p.i.
func (p *scanner) array() bool {
	more, ok := p.elements()
	for ; more; more, ok = p.next(']') {
		if !p.value() {
			return false
		}
	}
	return ok
}

// elements opens the array at p.i: more reports a first element, to be
// read before calling next(']').
func (p *scanner) elements() (more, ok bool) {
	empty, ok := p.open(']')
	return ok && !empty, ok
}

// end reports whether only whitespace is left.
func (p *scanner) end() bool {
	p.ws()
	return p.i == len(p.s)
}

// raw reads the value at p.i into *r.
func (p *scanner) raw(r *rawJSON) bool {
	start := p.i
	if !p.value() {
		return false
	}
	*r = rawJSON(p.s[start:p.i])
	return true
}

// skipMismatch reads the value at p.i, which the field being decoded
// cannot hold (null aside, which leaves any field as it is).
func (p *scanner) skipMismatch() bool {
	if !p.at('n') {
		p.mismatch = true
	}
	return p.value()
}

// fields reads the object at p.i member by member: read decodes the value
// of a member whose key names a field (with the field's index in names);
// the other values are read and dropped.
func (p *scanner) fields(names []string, read func(f int) bool) bool {
	empty, ok := p.open('}')
	more := ok && !empty
	for ; more; more, ok = p.next('}') {
		k, kok := p.key()
		if !kok {
			return false
		}
		if f := field(names, k); f >= 0 {
			kok = read(f)
		} else {
			kok = p.value()
		}
		if !kok {
			return false
		}
	}
	return ok
}

// field returns the index in names of the field encoding/json decodes key
// k into: the name equal to k, else the one equal under Unicode case
// folding; -1 for none.
func field(names []string, k string) int {
	for i, n := range names {
		if k == n {
			return i
		}
	}
	for i, n := range names {
		if strings.EqualFold(k, n) {
			return i
		}
	}
	return -1
}
