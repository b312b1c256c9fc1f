package trajectory

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Kind is the JSON type of a Value.
type Kind uint8

// JSON value kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is a decoded JSON value that keeps what Python's json.loads keeps:
// object members in document order, and each number's literal text (so an
// integer literal stays distinct from a float literal).
type Value struct {
	Kind    Kind
	Bool    bool     // for Bool
	Text    string   // the string for String; the literal for Number
	Elems   []Value  // for Array
	Members []Member // for Object, in order of first appearance, keys unique
}

// Member is one object member.
type Member struct {
	Key   string
	Value Value
}

// IsInt reports whether a Number was written as an integer literal (no
// fraction or exponent), which Python decodes as int rather than float.
func (v *Value) IsInt() bool {
	return v.Kind == Number && !strings.ContainsAny(v.Text, ".eE")
}

// Get returns the member named key of an Object.
func (v *Value) Get(key string) (*Value, bool) {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value, true
		}
	}
	return nil, false
}

// Any returns v as encoding/json decodes it into an any with UseNumber:
// map[string]any, []any, json.Number, string, bool or nil.
func (v *Value) Any() any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Text)
	case String:
		return v.Text
	case Array:
		a := make([]any, len(v.Elems))
		for i := range v.Elems {
			a[i] = v.Elems[i].Any()
		}
		return a
	case Object:
		m := make(map[string]any, len(v.Members))
		for i := range v.Members {
			m[v.Members[i].Key] = v.Members[i].Value.Any()
		}
		return m
	}
	return nil
}

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

// parse decodes the document s. Slabs left from an earlier document are
// used first.
func (p *parser) parse(s string) (Value, error) {
	var mbuf [scratchLen]Member
	var ebuf [scratchLen]Value
	p.s, p.i = s, 0
	p.counted, p.mleft, p.eleft = false, 0, 0
	p.space()
	v, _, err := p.value(0, stacks{ms: mbuf[:0], es: ebuf[:0]})
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.i != len(p.s) {
		return Value{}, errTrailing
	}
	return v, nil
}

// parser is a recursive-descent JSON decoder over a string.
//
// The members and elements of open containers are gathered on scratch
// stacks; a finished container's are copied to a slab shared by the whole
// document, so a small document costs one allocation rather than a
// growing slice per container.
type parser struct {
	s string
	i int

	mslab []Member // free space for finished objects' members
	eslab []Value  // free space for finished arrays' elements

	// counted is set once mleft and eleft are known: upper bounds on the
	// members and elements still to be moved to slabs.
	counted      bool
	mleft, eleft int

	// shared makes slabs serve several documents (see Prepare): a new
	// slab has room for at least sharedSlab items and the document is not
	// counted.
	shared bool
}

// sharedSlab is the least room of a slab shared by several documents.
const sharedSlab = 64

// stacks are the scratch stacks of open containers. They are passed
// along rather than kept in the parser so that Parse's initial room can
// stay off the heap.
type stacks struct {
	ms []Member // members of open objects
	es []Value  // elements of open arrays
}

// scratchLen is the scratch stack room Parse reserves before growing.
const scratchLen = 8

// maxSlab bounds a slab's length, and so the memory a loose size
// estimate can waste.
const maxSlab = 256

// count sets the bounds of a document's members and elements: every
// member has its own ':', and every element of an array follows its own
// ',' or '['. Bytes inside strings make the bounds loose, never short.
func (p *parser) count() {
	p.counted = true
	p.mleft = strings.Count(p.s, ":")
	if strings.IndexByte(p.s, '[') >= 0 {
		p.eleft = strings.Count(p.s, ",") + strings.Count(p.s, "[")
	}
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

// take moves the items gathered on a scratch stack since base to the
// slab, allocating a slab when it lacks room: left is the bound on the
// items of the slab's kind still to come.
func take[T any](p *parser, stack, slab *[]T, left *int, base int) []T {
	n := len(*stack) - base
	if cap(*slab)-len(*slab) < n && p.shared {
		*slab = make([]T, 0, max(n, sharedSlab))
	}
	if cap(*slab)-len(*slab) < n {
		if !p.counted {
			p.count()
		}
		if !p.newSlabs() || cap(*slab)-len(*slab) < n {
			*slab = make([]T, 0, max(n, min(*left, maxSlab)))
		}
	}
	*left -= n
	start := len(*slab)
	*slab = append(*slab, (*stack)[base:]...)
	*stack = (*stack)[:base]
	return (*slab)[start:len(*slab):len(*slab)]
}

func (p *parser) fail(what string) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", p.i, what)
}

func (p *parser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value decodes one value. Objects and arrays are decoded here rather
// than in functions of their own, and the scratch stacks are passed
// along and returned rather than kept in the parser: with no mutual
// recursion, the compiler can keep Parse's initial scratch room off the
// heap.
func (p *parser) value(depth int, st stacks) (Value, stacks, error) {
	if p.i >= len(p.s) {
		return Value{}, st, p.fail("unexpected end of input")
	}
	switch p.s[p.i] {
	case '{':
		depth++
		if depth > maxDepth {
			return Value{}, st, p.fail("nested too deeply")
		}
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return Value{Kind: Object}, st, nil
		}
		base := len(st.ms)
		var index map[string]int // built once the object is large
		for {
			k, err := p.memberKey()
			if err != nil {
				return Value{}, st, err
			}
			var e Value
			e, st, err = p.value(depth, st)
			if err != nil {
				return Value{}, st, err
			}
			st.ms, index = addMember(st.ms, base, index, k, e)
			end, err := p.next('}', "unexpected end of object", "expected ',' or '}'")
			if err != nil {
				return Value{}, st, err
			}
			if end {
				return Value{Kind: Object, Members: take(p, &st.ms, &p.mslab, &p.mleft, base)}, st, nil
			}
		}
	case '[':
		depth++
		if depth > maxDepth {
			return Value{}, st, p.fail("nested too deeply")
		}
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return Value{Kind: Array, Elems: []Value{}}, st, nil
		}
		base := len(st.es)
		for {
			var e Value
			var err error
			e, st, err = p.value(depth, st)
			if err != nil {
				return Value{}, st, err
			}
			st.es = push(st.es, e)
			end, err := p.next(']', "unexpected end of array", "expected ',' or ']'")
			if err != nil {
				return Value{}, st, err
			}
			if end {
				return Value{Kind: Array, Elems: take(p, &st.es, &p.eslab, &p.eleft, base)}, st, nil
			}
		}
	}
	v, err := p.scalar()
	return v, st, err
}

// scalar decodes a string, number, boolean or null.
func (p *parser) scalar() (Value, error) {
	switch c := p.s[p.i]; {
	case c == '"':
		s, err := p.str()
		return Value{Kind: String, Text: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return Value{Kind: Bool, Bool: true}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return Value{Kind: Bool}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return Value{}, nil
	}
	return Value{}, p.fail("unexpected character")
}

// memberKey decodes an object member's key and the ':' after it.
func (p *parser) memberKey() (string, error) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", p.fail("expected object key")
	}
	k, err := p.str()
	if err != nil {
		return "", err
	}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != ':' {
		return "", p.fail("expected ':'")
	}
	p.i++
	p.space()
	return k, nil
}

// next consumes the ',' or the closing byte after a container's item and
// reports whether it was the closing one.
func (p *parser) next(closing byte, atEnd, unexpected string) (bool, error) {
	p.space()
	if p.i >= len(p.s) {
		return false, p.fail(atEnd)
	}
	switch p.s[p.i] {
	case ',':
		p.i++
		p.space()
		return false, nil
	case closing:
		p.i++
		return true, nil
	}
	return false, p.fail(unexpected)
}

// str decodes a string. Plain ASCII strings are sub-strings of the input;
// others are unquoted by encoding/json for identical escape and UTF-8
// handling.
func (p *parser) str() (string, error) {
	start := p.i
	p.i++ // opening quote
	plain := true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			if plain {
				return p.s[start+1 : p.i-1], nil
			}
			var out string
			if err := json.Unmarshal([]byte(p.s[start:p.i]), &out); err != nil {
				return "", p.fail(err.Error())
			}
			return out, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", p.fail("control character in string")
		case c >= 0x80:
			plain = false
			p.i++
		default:
			p.i++
		}
	}
	return "", p.fail("unterminated string")
}

// number scans -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *parser) number() (Value, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && p.s[p.i] >= '1' && p.s[p.i] <= '9':
		p.digits()
	default:
		return Value{}, p.fail("invalid number")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return Value{}, p.fail("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return Value{}, p.fail("invalid number")
		}
	}
	return Value{Kind: Number, Text: p.s[start:p.i]}, nil
}

func (p *parser) digits() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
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
		if own[i].Key == k {
			own[i].Value = e
			return ms, nil
		}
	}
	return push(ms, Member{Key: k, Value: e}), nil
}

// push appends x to stack. It stores by index rather than with append so
// that the compiler can keep Parse's initial scratch room on the stack.
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
