package toolmatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/internal/swar"
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
	var sc scratch
	return p.parse(s, &sc, nil)
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

	// mleft and eleft, once counted, are upper bounds on the members
	// and elements still to be moved to slabs.
	mcounted, ecounted bool
	mleft, eleft       int

	doc string // the document being decoded
}

// scratch is the initial room of the scratch stacks parse keeps the
// members of open objects, the elements of open arrays and the open
// containers on. Its caller keeps it (on the stack), so that it is
// cleared once for several documents.
type scratch struct {
	m [scratchLen]Member
	e [scratchLen / 2]Value
	f [scratchLen / 2]frame
}

// frame is an open container.
type frame struct {
	index map[string]int // object: positions of its keys once it is large
	base  int            // where its items start on their scratch stack
	slot  int            // object: the position of the member being decoded
	obj   bool
}

// scratchLen is the room for members on the scratch stack before it
// grows.
const scratchLen = 16

// maxSlab bounds a slab's length, and so the memory a loose size
// estimate can waste.
const maxSlab = 256

// countBounds returns upper bounds on the members and elements of the
// document s: every member has its own ':', and every element of an
// array follows its own ',' or '['. Bytes inside strings make the bounds
// loose, never short.
func countBounds(s string) (members, elems int) {
	members = strings.Count(s, ":")
	if strings.IndexByte(s, '[') >= 0 {
		elems = strings.Count(s, ",") + strings.Count(s, "[")
	}
	return members, elems
}

// bound sets the bound on the members (or elements) still to come, when
// it is not known yet, from the documents still to decode, the current
// one first (see parse).
func (p *parser) bound(members bool, docs []string) {
	if docs == nil {
		if !p.mcounted {
			p.mcounted, p.ecounted = true, true
			p.mleft, p.eleft = countBounds(p.doc)
		}
		return
	}
	switch {
	case members && !p.mcounted:
		p.mcounted = true
		for _, d := range docs {
			p.mleft += strings.Count(d, ":")
		}
	case !members && !p.ecounted:
		p.ecounted = true
		for _, d := range docs {
			p.eleft += strings.Count(d, ",") + strings.Count(d, "[")
		}
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

// take moves items, a finished container's, to the slab, allocating a
// slab when it lacks room: left is the bound on the items of the slab's
// kind (members or elements) still to come.
func take[T any](p *parser, slab *[]T, left *int, items []T, members bool, docs []string) []T {
	n := len(items)
	if cap(*slab)-len(*slab) < n {
		p.bound(members, docs)
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
	if i < len(s) && s[i] > ' ' {
		return i
	}
	if i+1 < len(s) && s[i] == ' ' && s[i+1] > ' ' {
		return i + 1
	}
	return skipSpaceLoop(s, i)
}

// skipSpaceLoop is skipSpace past the first byte.
func skipSpaceLoop(s string, i int) int {
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

// parse decodes the document s with the scratch room sc. Slabs left
// from an earlier document are used first. docs, which new slabs are
// sized by, are the documents still to decode, s first, or nil for s
// alone.
//
// Each value is decoded into its place: the top-level value, the member
// of the innermost open object whose key was just read (a repeated key
// takes its first member's place), or a new last element of the
// innermost open array. A container is placed when it closes.
func (p *parser) parse(s string, sc *scratch, docs []string) (Value, error) {
	var (
		ms, es, fs = sc.m[:0], sc.e[:0], sc.f[:0]
		top        Value
		dst        = &top // where the value at i goes
		f          *frame // the innermost open container
		closed     Value  // a container just closed
		k          string
		end        int
		err        error
	)
	p.doc = s
	i := skipSpace(s, 0)
value:
	if i >= len(s) {
		return Value{}, failAt(i, "unexpected end of input")
	}
	switch c := s[i]; c {
	case '"':
		if end = plainEnd(s, i); end >= 0 {
			*dst = Value{Kind: String, Text: s[i+1 : end]}
			i = end + 1
			goto next
		}
		if k, i, err = strSlow(s, i); err != nil {
			return Value{}, err
		}
		*dst = Value{Kind: String, Text: k}
		goto next
	case '{', '[':
		if len(fs) >= maxDepth {
			return Value{}, failAt(i, "nested too deeply")
		}
		i = skipSpace(s, i+1)
		if c == '{' {
			if i < len(s) && s[i] == '}' {
				i++
				*dst = Value{Kind: Object}
				goto next
			}
			fs = append(fs, frame{base: len(ms), obj: true})
			f = &fs[len(fs)-1]
			goto key
		}
		if i < len(s) && s[i] == ']' {
			i++
			*dst = Value{Kind: Array, Elems: []Value{}}
			goto next
		}
		fs = append(fs, frame{base: len(es)})
		f = &fs[len(fs)-1]
		es = grow(es)
		dst = &es[len(es)-1]
		goto value
	case 't', 'f', 'n':
		lit, v := literal(c)
		if !hasLiteral(s, i, lit) {
			return Value{}, failAt(i, "unexpected character")
		}
		i += len(lit)
		*dst = v
		goto next
	default:
		if c >= '1' && c <= '9' {
			// A small integer: digits ending before '.', 'e' or 'E'.
			end := digits(s, i+1)
			if end >= len(s) || s[end] != '.' && s[end]|0x20 != 'e' {
				*dst = Value{Kind: Number, Text: s[i:end]}
				i = end
				goto next
			}
		} else if c != '-' && c != '0' {
			return Value{}, failAt(i, "unexpected character")
		}
		if k, i, err = number(s, i); err != nil {
			return Value{}, err
		}
		*dst = Value{Kind: Number, Text: k}
		goto next
	}
next:
	// After a value: the separator or the end of the innermost open
	// container.
	if len(fs) == 0 {
		if skipSpace(s, i) != len(s) {
			return Value{}, errTrailing
		}
		return top, nil
	}
	i = skipSpace(s, i)
	if f.obj {
		if i >= len(s) {
			return Value{}, failAt(i, "unexpected end of object")
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
			goto key
		case '}':
			i++
			closed = Value{Kind: Object, Members: take(p, &p.mslab, &p.mleft, ms[f.base:], true, docs)}
			ms = ms[:f.base]
			goto close
		}
		return Value{}, failAt(i, "expected ',' or '}'")
	}
	if i >= len(s) {
		return Value{}, failAt(i, "unexpected end of array")
	}
	switch s[i] {
	case ',':
		i = skipSpace(s, i+1)
		es = grow(es)
		dst = &es[len(es)-1]
		goto value
	case ']':
		i++
		closed = Value{Kind: Array, Elems: take(p, &p.eslab, &p.eleft, es[f.base:], false, docs)}
		es = es[:f.base]
		goto close
	}
	return Value{}, failAt(i, "expected ',' or ']'")
close:
	// Place the container just closed, in its own container if any.
	fs = fs[:len(fs)-1]
	if len(fs) == 0 {
		top = closed
		goto next
	}
	f = &fs[len(fs)-1]
	if f.obj {
		ms[f.slot].Value = closed
	} else {
		es[len(es)-1] = closed
	}
	goto next
key:
	// A member's key and the ':' after it; the member takes its place.
	if i >= len(s) || s[i] != '"' {
		return Value{}, failAt(i, "expected object key")
	}
	if end = plainEnd(s, i); end >= 0 {
		k, i = s[i+1:end], end+1
	} else if k, i, err = strSlow(s, i); err != nil {
		return Value{}, err
	}
	if i >= len(s) || s[i] != ':' {
		i = skipSpace(s, i)
		if i >= len(s) || s[i] != ':' {
			return Value{}, failAt(i, "expected ':'")
		}
	}
	i = skipSpace(s, i+1)
	if f.index == nil && len(ms)-f.base < indexAfter {
		f.slot = f.base + findKey(ms[f.base:], k)
		if f.slot == len(ms) {
			ms = grow(ms)
			ms[f.slot].Key = k
		}
	} else {
		ms, f.index, f.slot = addKey(ms, f.base, f.index, k)
	}
	dst = &ms[f.slot].Value
	goto value
}

// grow returns stack one item longer; the new last item is left as it
// was and must be set in full.
func grow[T any](stack []T) []T {
	if len(stack) < cap(stack) {
		return stack[:len(stack)+1]
	}
	var zero T
	return append(stack, zero)
}

// findKey returns the position of the member of ms with key k, or
// len(ms).
func findKey(ms []Member, k string) int {
	for j := range ms {
		if sameKey(ms[j].Key, k) {
			return j
		}
	}
	return len(ms)
}

// sameKey reports whether a == b, deciding on the lengths and first
// bytes when they differ.
func sameKey(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || a[0] == b[0]) && a == b
}

// literal returns the literal that starts with c ('t', 'f' or 'n') and
// its value.
func literal(c byte) (string, Value) {
	switch c {
	case 't':
		return "true", Value{Kind: Bool, Bool: true}
	case 'f':
		return "false", Value{Kind: Bool}
	}
	return "null", Value{}
}

// hasLiteral reports whether lit is at s[i:].
func hasLiteral(s string, i int, lit string) bool {
	return len(s)-i >= len(lit) && s[i:i+len(lit)] == lit
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

// plainEnd returns the offset of the closing quote of the string whose
// opening quote is at s[i] when its text is plain (see scanPlain), else
// -1. A short string is decided from one word of it.
func plainEnd(s string, i int) int {
	if i+9 <= len(s) {
		if m := specialBytes(swar.Load64(s, i+1)); m != 0 {
			if e := i + 1 + bits.TrailingZeros64(m)>>3; s[e] == '"' {
				return e
			}
		}
	}
	return scanPlain(s, i+1)
}

// scanPlain returns the offset of the closing quote of the string whose
// text starts at s[j] when the text is plain: no escape and valid UTF-8,
// so that it is its own decoding. It returns -1 otherwise (see strSlow).
func scanPlain(s string, j int) int {
	for j < len(s) {
		if j+8 <= len(s) {
			m := specialBytes(swar.Load64(s, j))
			if m == 0 {
				j += 8
				continue
			}
			j += bits.TrailingZeros64(m) >> 3
		}
		switch c := s[j]; {
		case c == '"':
			return j
		case c == '\\' || c < 0x20:
			return -1
		case c < utf8.RuneSelf:
			j++
		default:
			r, n := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && n == 1 {
				return -1
			}
			j += n
		}
	}
	return -1
}

// strSlow decodes the string whose opening quote is at s[start] as
// encoding/json decodes it, escapes and invalid UTF-8 included. It first
// finds the closing quote, skipping the byte after each backslash and
// failing on a control character or the end of input, then has
// encoding/json decode the quoted text (escapes are rare in arguments).
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
			var out string
			if err := json.Unmarshal([]byte(s[start:i]), &out); err != nil {
				return "", i, failAt(i, err.Error())
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

// addKey finds the member with key k of the large object whose members
// are ms[base:], adding it when there is none, and returns its position.
// index, once built, maps keys to positions in ms.
func addKey(ms []Member, base int, index map[string]int, k string) ([]Member, map[string]int, int) {
	if index == nil {
		own := ms[base:]
		index = make(map[string]int, 2*len(own))
		for i := range own {
			index[own[i].Key] = base + i
		}
	}
	if i, ok := index[k]; ok {
		return ms, index, i
	}
	index[k] = len(ms)
	ms = grow(ms)
	ms[len(ms)-1].Key = k
	return ms, index, len(ms) - 1
}
