package trajectory

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// errTrailing reports bytes after the top-level value.
var errTrailing = errors.New("invalid JSON: data after top-level value")

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// Parse decodes one JSON document. It accepts exactly what json.Valid
// accepts. A repeated object key keeps its first position and its last
// value, as a Python dict built by json.loads does.
func Parse(s string) (Value, error) {
	var p parser
	return p.parse(s)
}

// parser is a JSON decoder. It walks the document in one loop, with the
// containers still open on a stack of frames, so that nesting costs no
// recursion and the scratch room stays off the heap.
//
// The members and elements of open containers are gathered on scratch
// stacks; a finished container's are copied to a slab, which serves the
// whole document (and, in Prepare, several documents), so a small
// document costs one allocation rather than a growing slice per
// container.
type parser struct {
	mslab []Member // free space for finished objects' members
	eslab []Value  // free space for finished arrays' elements

	// counted is set once mleft and eleft are known: upper bounds on the
	// members and elements still to be moved to slabs.
	counted      bool
	mleft, eleft int
	doc          string // the document being decoded, for count
}

// frame is an open container.
type frame struct {
	key   string         // object: the key of the member being decoded
	index map[string]int // object: positions of its keys once it is large
	base  int            // where its items start on their scratch stack
	obj   bool
}

// scratchLen is the scratch stack room parse reserves before growing.
const scratchLen = 16

// maxSlab bounds a slab's length, and so the memory a loose size
// estimate can waste.
const maxSlab = 256

// countBounds returns upper bounds on the members and elements of the
// documents texts: every member has its own ':', and every element of an
// array follows its own ',' or '['. Bytes inside strings make the bounds
// loose, never short.
func countBounds(texts ...string) (members, elems int) {
	for _, s := range texts {
		members += strings.Count(s, ":")
		if strings.IndexByte(s, '[') >= 0 {
			elems += strings.Count(s, ",") + strings.Count(s, "[")
		}
	}
	return members, elems
}

// pairSlab holds both slabs of a small document in one allocation.
type pairSlab[M, E any] struct {
	m M
	e E
}

// newSlabs allocates the first slabs of a document that has both objects
// and arrays in one allocation, when its members are few. Elements get
// modest room, as the bound on them is loose (it counts object commas
// too); a document with more gets a second slab for them. It reports
// false when it leaves the choice to the caller.
func (p *parser) newSlabs() bool {
	if p.mslab != nil || p.eslab != nil || p.mleft == 0 || p.eleft == 0 {
		return false
	}
	switch m := p.mleft; {
	case m <= 4:
		s := new(pairSlab[[4]Member, [4]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	case m <= 8:
		s := new(pairSlab[[8]Member, [4]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	case m <= 16:
		s := new(pairSlab[[16]Member, [4]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	case m <= 32:
		s := new(pairSlab[[32]Member, [8]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	default:
		return false
	}
	return true
}

// take moves items, a finished container's, to the slab, allocating a
// slab when it lacks room: left is the bound on the items of the slab's
// kind still to come.
func take[T any](p *parser, slab *[]T, left *int, items []T) []T {
	n := len(items)
	if cap(*slab)-len(*slab) < n {
		if !p.counted {
			p.counted = true
			p.mleft, p.eleft = countBounds(p.doc)
		}
		if !p.newSlabs() || cap(*slab)-len(*slab) < n {
			*slab = make([]T, 0, max(n, min(*left, maxSlab)))
		}
	}
	*left -= n
	start := len(*slab)
	*slab = append(*slab, items...)
	return (*slab)[start:len(*slab):len(*slab)]
}

// failAt returns the error for invalid input at offset i.
func failAt(i int, what string) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", i, what)
}

// skipSpace returns the offset of the first byte at or after i that is
// not JSON whitespace.
func skipSpace(s string, i int) int {
	for i < len(s) && s[i] <= ' ' {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// parse decodes the document s. Slabs left from an earlier document are
// used first.
func (p *parser) parse(s string) (Value, error) {
	var mbuf [scratchLen]Member
	var ebuf [scratchLen]Value
	var fbuf [scratchLen]frame
	ms, es, fs := mbuf[:0], ebuf[:0], fbuf[:0]
	p.doc = s
	i := skipSpace(s, 0)
	var v Value
	var err error
	for {
		// Decode the value at i into v; an opened container is pushed
		// and its first item decoded next.
		if i >= len(s) {
			return Value{}, failAt(i, "unexpected end of input")
		}
		switch c := s[i]; c {
		case '{', '[':
			if len(fs) >= maxDepth {
				return Value{}, failAt(i, "nested too deeply")
			}
			i = skipSpace(s, i+1)
			if c == '{' {
				if i < len(s) && s[i] == '}' {
					i++
					v = Value{Kind: Object}
					break
				}
				var k string
				if k, i, err = memberKey(s, i); err != nil {
					return Value{}, err
				}
				fs = push(fs, frame{key: k, base: len(ms), obj: true})
				continue
			}
			if i < len(s) && s[i] == ']' {
				i++
				v = Value{Kind: Array, Elems: []Value{}}
				break
			}
			fs = push(fs, frame{base: len(es)})
			continue
		case '"':
			var t string
			if t, i, err = str(s, i); err != nil {
				return Value{}, err
			}
			v = Value{Kind: String, Text: t}
		case 't':
			if !hasLiteral(s, i, "true") {
				return Value{}, failAt(i, "unexpected character")
			}
			i += 4
			v = Value{Kind: Bool, Bool: true}
		case 'f':
			if !hasLiteral(s, i, "false") {
				return Value{}, failAt(i, "unexpected character")
			}
			i += 5
			v = Value{Kind: Bool}
		case 'n':
			if !hasLiteral(s, i, "null") {
				return Value{}, failAt(i, "unexpected character")
			}
			i += 4
			v = Value{}
		default:
			if c != '-' && (c < '0' || c > '9') {
				return Value{}, failAt(i, "unexpected character")
			}
			var t string
			if t, i, err = number(s, i); err != nil {
				return Value{}, err
			}
			v = Value{Kind: Number, Text: t}
		}
		// Add v to the innermost open container, closing those that end
		// with it, until one expects another item.
	attach:
		for {
			if len(fs) == 0 {
				if skipSpace(s, i) != len(s) {
					return Value{}, errTrailing
				}
				return v, nil
			}
			f := &fs[len(fs)-1]
			i = skipSpace(s, i)
			if f.obj {
				ms, f.index = addMember(ms, f.base, f.index, f.key, v)
				if i >= len(s) {
					return Value{}, failAt(i, "unexpected end of object")
				}
				switch s[i] {
				case ',':
					if f.key, i, err = memberKey(s, skipSpace(s, i+1)); err != nil {
						return Value{}, err
					}
					break attach
				case '}':
					i++
					v = Value{Kind: Object, Members: take(p, &p.mslab, &p.mleft, ms[f.base:])}
					ms = ms[:f.base]
					fs = fs[:len(fs)-1]
					continue
				}
				return Value{}, failAt(i, "expected ',' or '}'")
			}
			es = push(es, v)
			if i >= len(s) {
				return Value{}, failAt(i, "unexpected end of array")
			}
			switch s[i] {
			case ',':
				i = skipSpace(s, i+1)
				break attach
			case ']':
				i++
				v = Value{Kind: Array, Elems: take(p, &p.eslab, &p.eleft, es[f.base:])}
				es = es[:f.base]
				fs = fs[:len(fs)-1]
				continue
			}
			return Value{}, failAt(i, "expected ',' or ']'")
		}
	}
}

// hasLiteral reports whether lit is at s[i:].
func hasLiteral(s string, i int, lit string) bool {
	return len(s)-i >= len(lit) && s[i:i+len(lit)] == lit
}

// memberKey decodes an object member's key at i and the ':' after it,
// and returns the offset of the member's value.
func memberKey(s string, i int) (string, int, error) {
	if i >= len(s) || s[i] != '"' {
		return "", i, failAt(i, "expected object key")
	}
	k, i, err := str(s, i)
	if err != nil {
		return "", i, err
	}
	i = skipSpace(s, i)
	if i >= len(s) || s[i] != ':' {
		return "", i, failAt(i, "expected ':'")
	}
	return k, skipSpace(s, i+1), nil
}

// Masks of the bytes of a word, for testing eight bytes at once.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialBytes returns a mask whose lowest set bit is the high bit of the
// first byte of x (in memory order) that ends a plain run of string
// text: '"', '\\', a control character or a non-ASCII byte; 0 when there
// is none. Bits above the lowest may be set spuriously.
func specialBytes(x uint64) uint64 {
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((q-ones)&^q | (b-ones)&^b | (x-ones*0x20)&^x | x) & highs
}

// load64 returns the eight bytes of s at i, the first in the low byte.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// str decodes the string whose opening quote is at s[i] and returns it
// with the offset after its closing quote. Strings without escapes in
// valid UTF-8 are sub-strings of the input; others take strSlow.
func str(s string, i int) (string, int, error) {
	j := i + 1
	for j < len(s) {
		if j+8 <= len(s) {
			m := specialBytes(load64(s, j))
			if m == 0 {
				j += 8
				continue
			}
			j += bits.TrailingZeros64(m) >> 3
		}
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, nil
		case c == '\\' || c < 0x20:
			return strSlow(s, i)
		case c < utf8.RuneSelf:
			j++
		default:
			r, n := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && n == 1 {
				return strSlow(s, i)
			}
			j += n
		}
	}
	return strSlow(s, i)
}

// strSlow decodes the string whose opening quote is at s[start] as
// encoding/json decodes it, escapes and invalid UTF-8 included. It first
// finds the closing quote, skipping the byte after each backslash and
// failing on a control character or the end of input, then decodes the
// text between the quotes.
func strSlow(s string, start int) (string, int, error) {
	i := start + 1
	plain := true
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			i++
			if plain {
				return s[start+1 : i-1], i, nil
			}
			out, msg := unquote(s[start+1 : i-1])
			if msg != "" {
				return "", i, failAt(i, msg)
			}
			return out, i, nil
		case c == '\\':
			plain = false
			i += 2
		case c < 0x20:
			return "", i, failAt(i, "control character in string")
		case c >= utf8.RuneSelf:
			plain = false
			i++
		default:
			i++
		}
	}
	return "", i, failAt(i, "unterminated string")
}

// number decodes -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? at i and
// returns its literal text.
func number(s string, i int) (string, int, error) {
	start := i
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i+1)
	default:
		return "", i, failAt(i, "invalid number")
	}
	if i < len(s) && s[i] == '.' {
		j := digits(s, i+1)
		if j == i+1 {
			return "", j, failAt(j, "invalid number")
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return "", j, failAt(j, "invalid number")
		}
		i = j
	}
	return s[start:i], i, nil
}

// digits returns the offset of the first byte at or after i that is not
// a decimal digit.
func digits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// indexAfter is the member count from which object keys are looked up in a
// map instead of by a scan.
const indexAfter = 16

// addMember adds k: e to the object whose members are ms[base:],
// replacing the value of an earlier member with the same key in place.
// index, once built, maps keys to positions in ms.
func addMember(ms []Member, base int, index map[string]int, k string, e Value) ([]Member, map[string]int) {
	own := ms[base:]
	if index == nil && len(own) >= indexAfter {
		index = make(map[string]int, 2*len(own))
		for i := range own {
			index[own[i].Key] = base + i
		}
	}
	if index != nil {
		if i, ok := index[k]; ok {
			ms[i].Value = e
			return ms, index
		}
		index[k] = len(ms)
		return push(ms, Member{Key: k, Value: e}), index
	}
	for i := range own {
		if len(own[i].Key) == len(k) && own[i].Key == k {
			own[i].Value = e
			return ms, nil
		}
	}
	return push(ms, Member{Key: k, Value: e}), nil
}

// push appends x to stack. It stores by index rather than with append so
// that the compiler can keep parse's initial scratch room on the stack.
func push[T any](stack []T, x T) []T {
	n := len(stack)
	if n == cap(stack) {
		grown := make([]T, n, 2*n+scratchLen)
		copy(grown, stack)
		stack = grown
	}
	stack = stack[:n+1]
	stack[n] = x
	return stack
}
