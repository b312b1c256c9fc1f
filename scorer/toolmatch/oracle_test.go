package toolmatch

// The implementation of the parser, keys, Python str() and matching as
// they were before the prepared fast paths, kept as a test oracle.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// oldErrTrailing reports bytes after the top-level value.
var oldErrTrailing = errors.New("invalid JSON: data after top-level value")

// oldMaxDepth bounds nesting, as encoding/json does.
const oldMaxDepth = 10000

// oldParse decodes one JSON document. It accepts exactly what json.Valid
// accepts. A repeated object key keeps its first position and its last
// value, as a Python dict built by json.loads does.
func oldParse(s string) (Value, error) {
	var p oldParser
	return p.parse(s)
}

// parse decodes the document s. Slabs left from an earlier document are
// used first.
func (p *oldParser) parse(s string) (Value, error) {
	var mbuf [oldScratchLen]Member
	var ebuf [oldScratchLen]Value
	p.s, p.i = s, 0
	p.counted, p.mleft, p.eleft = false, 0, 0
	p.space()
	v, _, err := p.value(0, oldStacks{ms: mbuf[:0], es: ebuf[:0]})
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.i != len(p.s) {
		return Value{}, oldErrTrailing
	}
	return v, nil
}

// oldParser is a recursive-descent JSON decoder over a string.
//
// The members and elements of open containers are gathered on scratch
// oldStacks; a finished container's are copied to a slab shared by the whole
// document, so a small document costs one allocation rather than a
// growing slice per container.
type oldParser struct {
	s string
	i int

	mslab []Member // free space for finished objects' members
	eslab []Value  // free space for finished arrays' elements

	// counted is set once mleft and eleft are known: upper bounds on the
	// members and elements still to be moved to slabs.
	counted      bool
	mleft, eleft int

	// shared makes slabs serve several documents (see Prepare): a new
	// slab has room for at least oldSharedSlab items and the document is not
	// counted.
	shared bool
}

// oldSharedSlab is the least room of a slab shared by several documents.
const oldSharedSlab = 64

// oldStacks are the scratch oldStacks of open containers. They are passed
// along rather than kept in the oldParser so that oldParse's initial room can
// stay off the heap.
type oldStacks struct {
	ms []Member // members of open objects
	es []Value  // elements of open arrays
}

// oldScratchLen is the scratch stack room oldParse reserves before growing.
const oldScratchLen = 8

// oldMaxSlab bounds a slab's length, and so the memory a loose size
// estimate can waste.
const oldMaxSlab = 256

// count sets the bounds of a document's members and elements: every
// member has its own ':', and every element of an array follows its own
// ',' or '['. Bytes inside strings make the bounds loose, never short.
func (p *oldParser) count() {
	p.counted = true
	p.mleft = strings.Count(p.s, ":")
	if strings.IndexByte(p.s, '[') >= 0 {
		p.eleft = strings.Count(p.s, ",") + strings.Count(p.s, "[")
	}
}

// oldPairSlab holds both slabs of a small document in one allocation.
type oldPairSlab[M, E any] struct {
	m M
	e E
}

// newSlabs allocates the first slabs of a document that has both objects
// and arrays in one allocation, when its members are few. Elements get
// modest room, as the bound on them is loose (it counts object commas
// too); a document with more gets a second slab for them. It reports
// false when it leaves the choice to the caller.
func (p *oldParser) newSlabs() bool {
	if p.mslab != nil || p.eslab != nil || p.mleft == 0 || p.eleft == 0 {
		return false
	}
	switch m := p.mleft; {
	case m <= 4:
		s := new(oldPairSlab[[4]Member, [4]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	case m <= 8:
		s := new(oldPairSlab[[8]Member, [4]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	case m <= 16:
		s := new(oldPairSlab[[16]Member, [4]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	case m <= 32:
		s := new(oldPairSlab[[32]Member, [8]Value])
		p.mslab, p.eslab = s.m[:0], s.e[:0]
	default:
		return false
	}
	return true
}

// oldTake moves the items gathered on a scratch stack since base to the
// slab, allocating a slab when it lacks room: left is the bound on the
// items of the slab's kind still to come.
func oldTake[T any](p *oldParser, stack, slab *[]T, left *int, base int) []T {
	n := len(*stack) - base
	if cap(*slab)-len(*slab) < n && p.shared {
		*slab = make([]T, 0, max(n, oldSharedSlab))
	}
	if cap(*slab)-len(*slab) < n {
		if !p.counted {
			p.count()
		}
		if !p.newSlabs() || cap(*slab)-len(*slab) < n {
			*slab = make([]T, 0, max(n, min(*left, oldMaxSlab)))
		}
	}
	*left -= n
	start := len(*slab)
	*slab = append(*slab, (*stack)[base:]...)
	*stack = (*stack)[:base]
	return (*slab)[start:len(*slab):len(*slab)]
}

func (p *oldParser) fail(what string) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", p.i, what)
}

func (p *oldParser) space() {
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
// than in functions of their own, and the scratch oldStacks are passed
// along and returned rather than kept in the oldParser: with no mutual
// recursion, the compiler can keep oldParse's initial scratch room off the
// heap.
func (p *oldParser) value(depth int, st oldStacks) (Value, oldStacks, error) {
	if p.i >= len(p.s) {
		return Value{}, st, p.fail("unexpected end of input")
	}
	switch p.s[p.i] {
	case '{':
		depth++
		if depth > oldMaxDepth {
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
			st.ms, index = oldAddMember(st.ms, base, index, k, e)
			end, err := p.next('}', "unexpected end of object", "expected ',' or '}'")
			if err != nil {
				return Value{}, st, err
			}
			if end {
				return Value{Kind: Object, Members: oldTake(p, &st.ms, &p.mslab, &p.mleft, base)}, st, nil
			}
		}
	case '[':
		depth++
		if depth > oldMaxDepth {
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
			st.es = oldPush(st.es, e)
			end, err := p.next(']', "unexpected end of array", "expected ',' or ']'")
			if err != nil {
				return Value{}, st, err
			}
			if end {
				return Value{Kind: Array, Elems: oldTake(p, &st.es, &p.eslab, &p.eleft, base)}, st, nil
			}
		}
	}
	v, err := p.scalar()
	return v, st, err
}

// scalar decodes a string, number, boolean or null.
func (p *oldParser) scalar() (Value, error) {
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
func (p *oldParser) memberKey() (string, error) {
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
func (p *oldParser) next(closing byte, atEnd, unexpected string) (bool, error) {
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
func (p *oldParser) str() (string, error) {
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
func (p *oldParser) number() (Value, error) {
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

func (p *oldParser) digits() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// oldIndexAfter is the member count from which object keys are looked up in a
// map instead of by a scan.
const oldIndexAfter = 16

// oldAddMember adds k: e to the object whose members are ms[base:],
// replacing the value of an earlier member with the same key in place.
// index, once built, maps keys to positions in ms.
func oldAddMember(ms []Member, base int, index map[string]int, k string, e Value) ([]Member, map[string]int) {
	own := ms[base:]
	if index == nil && len(own) >= oldIndexAfter {
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
		return oldPush(ms, Member{Key: k, Value: e}), index
	}
	for i := range own {
		if own[i].Key == k {
			own[i].Value = e
			return ms, nil
		}
	}
	return oldPush(ms, Member{Key: k, Value: e}), nil
}

// oldPush appends x to stack. It stores by index rather than with append so
// that the compiler can keep oldParse's initial scratch room on the stack.
func oldPush[T any](stack []T, x T) []T {
	n := len(stack)
	if n == cap(stack) {
		grown := make([]T, n, 2*n+oldScratchLen)
		copy(grown, stack)
		stack = grown
	}
	stack = stack[:n+1]
	stack[n] = x
	return stack
}

// oldKey returns a string equal for two calls exactly when they are equal
// under eq. Arguments that are not valid JSON give a key equal only to the
// same raw text (after trimming blanks).
func oldKey(c Call, eq Equality) string {
	b := make([]byte, 0, len(c.Name)+len(c.Args)+16)
	b = oldAppendString(b, c.Name)
	if eq == NameOnly {
		return string(b)
	}
	return string(oldAppendArgsKey(b, c.Args, eq))
}

// oldArgsKey returns the argument part of oldKey: equal for two argument texts
// exactly when they are equal under eq.
func oldArgsKey(args string, eq Equality) string {
	if eq == NameOnly {
		return ""
	}
	return string(oldAppendArgsKey(nil, args, eq))
}

// oldKeys returns oldKey of every call.
func oldKeys(calls []Call, eq Equality) []string {
	keys := make([]string, len(calls))
	for i := range calls {
		keys[i] = oldKey(calls[i], eq)
	}
	return keys
}

// oldExactEqual is the equality of oldExactArgsKey: JSONEqual with numbers
// compared by exact decimal value instead of as doubles.
const oldExactEqual = NameOnly + 1

// oldExactArgsKey returns a key equal for two argument texts exactly when
// they are equal as encoding/json decodes them with UseNumber: object key
// order is ignored, a repeated key keeps its last value, numbers compare
// by exact decimal value (1, 1.0 and 1e0 are equal, as are -0 and 0;
// integers beyond float64 precision stay distinct; a number whose
// exponent is beyond ±2^60 is compared by its literal text), and booleans
// are not numbers. Text that is not valid JSON, empty text included, gets a key
// equal only to the same raw text; blanks are not trimmed.
func oldExactArgsKey(raw string) string {
	v, err := oldParse(raw)
	if err != nil {
		return "r" + raw
	}
	b := make([]byte, 0, len(raw)+8)
	b = append(b, 'j')
	return string(oldAppendCanonical(b, &v, oldExactEqual))
}

func oldAppendArgsKey(b []byte, args string, eq Equality) []byte {
	t := strings.TrimSpace(args)
	if t == "" {
		if eq == JSONEqual {
			return append(b, "{}"...)
		}
		return append(b, 'n')
	}
	v, err := oldParse(t)
	if err != nil {
		b = append(b, 'r')
		return append(b, t...)
	}
	return oldAppendCanonical(b, &v, eq)
}

// oldAppendCanonical writes an unambiguous canonical encoding of v: strings
// length-prefixed, object members sorted by key, numbers by value.
func oldAppendCanonical(b []byte, v *Value, eq Equality) []byte {
	switch v.Kind {
	case Null:
		return append(b, 'n')
	case Bool:
		if eq == PythonEqual {
			if v.Bool {
				return append(b, "d1;"...)
			}
			return append(b, "d0;"...)
		}
		if v.Bool {
			return append(b, 't')
		}
		return append(b, 'f')
	case Number:
		b = append(b, 'd')
		if eq == oldExactEqual {
			b = oldAppendExactNumber(b, v.Text)
		} else {
			b = oldAppendNumberKey(b, v)
		}
		return append(b, ';')
	case String:
		return oldAppendString(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			b = oldAppendCanonical(b, &v.Elems[i], eq)
		}
		return append(b, ']')
	}
	// Object
	order := make([]int, len(v.Members))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(v.Members[x].Key, v.Members[y].Key) })
	b = append(b, '{')
	for _, i := range order {
		b = oldAppendString(b, v.Members[i].Key)
		b = oldAppendCanonical(b, &v.Members[i].Value, eq)
	}
	return append(b, '}')
}

func oldAppendString(b []byte, s string) []byte {
	b = append(b, 's')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// oldAppendNumberKey writes a number so that equal values give equal text, as
// Python compares a json.loads int or float: an integer literal is an
// exact integer; any other literal is the double it rounds to, written as
// an exact integer when integral (so 1.0 equals 1) and in shortest form
// otherwise. Overflowing floats are ±inf, as in Python.
func oldAppendNumberKey(b []byte, v *Value) []byte {
	if v.IsInt() {
		t := v.Text
		if t == "-0" {
			t = "0"
		}
		return append(b, t...)
	}
	f, err := strconv.ParseFloat(v.Text, 64)
	if err != nil && !math.IsInf(f, 0) {
		return append(append(b, 'r'), v.Text...)
	}
	switch {
	case math.IsInf(f, 1):
		return append(b, "+inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case f == math.Trunc(f):
		if math.Abs(f) < 1<<62 {
			return strconv.AppendInt(b, int64(f), 10)
		}
		i, _ := big.NewFloat(f).Int(nil)
		return i.Append(b, 10)
	}
	return append(append(b, 'f'), strconv.FormatFloat(f, 'g', -1, 64)...)
}

// oldMaxExactExp bounds exponents handled numerically; beyond it a number
// is keyed by its literal text.
const oldMaxExactExp = 1 << 60

// oldAppendExactNumber writes a JSON number literal as sign, significant
// digits and a decimal exponent (value = digits × 10^exp) with no leading
// or trailing zeros in the digits, so equal values give equal text. Zero,
// including -0, is written "0".
func oldAppendExactNumber(b []byte, s string) []byte {
	raw := s
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	mant, expText := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText = s[:i], s[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	var exp int64
	if expText != "" {
		e, err := strconv.ParseInt(expText, 10, 64)
		if err != nil || e > oldMaxExactExp || e < -oldMaxExactExp {
			return append(append(b, 'r'), raw...)
		}
		exp = e
	}
	digits := len(intPart) + len(frac)
	at := func(i int) byte {
		if i < len(intPart) {
			return intPart[i]
		}
		return frac[i-len(intPart)]
	}
	first, last := -1, -1
	for i := 0; i < digits; i++ {
		if at(i) != '0' {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return append(b, '0')
	}
	// value = digits[first..last] × 10^(exp - len(frac) + trailing zeros)
	exp10 := exp - int64(len(frac)) + int64(digits-1-last)
	if neg {
		b = append(b, '-')
	}
	for i := first; i <= last; i++ {
		b = append(b, at(i))
	}
	b = append(b, 'e')
	return strconv.AppendInt(b, exp10, 10)
}

// oldPyStr returns Python's str() of the value json.loads would produce: a
// string is itself; ints print their digits; floats print Python's
// shortest repr ("1.0", "1e-05", "1e+16"); booleans "True"/"False"; null
// "None"; lists and dicts print the repr of their elements, dicts in
// document order ("{'k': 1}").
func oldPyStr(v *Value) string {
	if v.Kind == String {
		return v.Text
	}
	return string(oldAppendPyRepr(nil, v))
}

// oldAppendPyRepr writes Python's repr() of v.
func oldAppendPyRepr(b []byte, v *Value) []byte {
	switch v.Kind {
	case Null:
		return append(b, "None"...)
	case Bool:
		if v.Bool {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case Number:
		return oldAppendPyNumber(b, v)
	case String:
		return oldAppendPyStrRepr(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = oldAppendPyRepr(b, &v.Elems[i])
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i := range v.Members {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = oldAppendPyStrRepr(b, v.Members[i].Key)
		b = append(b, ": "...)
		b = oldAppendPyRepr(b, &v.Members[i].Value)
	}
	return append(b, '}')
}

// oldAppendPyNumber writes an int literal as Python prints the int, and any
// other literal as Python prints the float it parses to.
func oldAppendPyNumber(b []byte, v *Value) []byte {
	if v.IsInt() {
		if v.Text == "-0" {
			return append(b, '0')
		}
		return append(b, v.Text...)
	}
	f, _ := strconv.ParseFloat(v.Text, 64) // ±Inf on overflow, as Python
	return oldAppendPyFloat(b, f)
}

// oldAppendPyFloat writes Python's repr() of a float: the shortest digits that
// round-trip, in fixed notation when the decimal exponent is in [-4, 16)
// (with ".0" when integral) and in exponent notation otherwise ("1e-05",
// "1.5e+16").
func oldAppendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // [-]d[.ddd]e±XX
	if e[0] == '-' {
		b = append(b, '-')
		e = e[1:]
	}
	at := strings.IndexByte(string(e), 'e')
	mant, exp := e[:at], e[at+1:]
	digits := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	x, _ := strconv.Atoi(string(exp))
	decpt := x + 1 // value = 0.digits × 10^decpt
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			b = append(b, "0."...)
			for i := 0; i < -decpt; i++ {
				b = append(b, '0')
			}
			return append(b, digits...)
		case decpt >= len(digits):
			b = append(b, digits...)
			for i := len(digits); i < decpt; i++ {
				b = append(b, '0')
			}
			return append(b, ".0"...)
		default:
			b = append(b, digits[:decpt]...)
			b = append(b, '.')
			return append(b, digits[decpt:]...)
		}
	}
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	if x < 0 {
		b = append(b, '-')
		x = -x
	} else {
		b = append(b, '+')
	}
	if x < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(x), 10)
}

// oldAppendPyStrRepr writes Python's repr() of a str: single quotes unless
// the text holds a single quote and no double quote; backslash, the quote,
// \t \n \r escaped; other control and non-printable characters as \xNN,
// \uNNNN or \UNNNNNNNN; printable non-ASCII kept.
func oldAppendPyStrRepr(b []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	const hex = "0123456789abcdef"
	b = append(b, quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r < ' ' || r == 0x7f:
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		case r < 0x7f:
			b = append(b, byte(r))
		case unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xff:
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		case r <= 0xffff:
			b = append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			b = append(b, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				b = append(b, hex[r>>uint(sh)&0xf])
			}
		}
	}
	return append(b, quote)
}

// oldMatched returns how many reference calls find a predicted partner when
// each predicted call can be used once: the size of the multiset
// intersection.
func oldMatched(pred, ref []string) int {
	if len(pred) == 0 || len(ref) == 0 {
		return 0
	}
	used := make([]bool, len(pred))
	n := 0
	for _, r := range ref {
		for i, p := range pred {
			if !used[i] && p == r {
				used[i] = true
				n++
				break
			}
		}
	}
	return n
}

// oldPrecision is oldMatched / len(pred). With no predicted calls it is 1 when
// ref is empty too and 0 otherwise (doing nothing is not precise when
// something was expected).
func oldPrecision(pred, ref []string) float64 {
	if len(pred) == 0 {
		if len(ref) == 0 {
			return 1
		}
		return 0
	}
	return float64(oldMatched(pred, ref)) / float64(len(pred))
}

// oldRecall is oldMatched / len(ref). With no reference calls it is 1
// (vacuously everything expected was done), so oldRecall == 1 exactly when
// AnyOrderMatch holds.
func oldRecall(pred, ref []string) float64 {
	if len(ref) == 0 {
		return 1
	}
	return float64(oldMatched(pred, ref)) / float64(len(ref))
}

// oldArgsObject is ArgsObject on the old parser.
func oldArgsObject(args string) (members []Member, ok bool) {
	t := strings.TrimSpace(args)
	if t == "" {
		return nil, true
	}
	v, err := oldParse(t)
	if err != nil || v.Kind != Object {
		return nil, false
	}
	return v.Members, true
}

// oldToolCallAccuracy is ToolCallAccuracy as it was.
func oldToolCallAccuracy(pred, ref []Call, strictOrder bool, cmp ArgComparison) float64 {
	switch {
	case len(pred) == 0 && len(ref) == 0:
		return 1
	case len(pred) == 0, len(ref) == 0:
		return 0
	}
	args := func(calls []Call) []ragasArgs {
		a := make([]ragasArgs, len(calls))
		for i := range calls {
			m, ok := oldArgsObject(calls[i].Args)
			a[i] = ragasArgs{members: m, raw: strings.TrimSpace(calls[i].Args), object: ok}
		}
		return a
	}
	pa, ra := args(pred), args(ref)
	pOrder, rOrder := oldIdentity(len(pred)), oldIdentity(len(ref))
	if !strictOrder {
		pOrder = oldSortByRagasKey(pred, pa)
		rOrder = oldSortByRagasKey(ref, ra)
	}
	pNames, rNames := make([]string, len(pred)), make([]string, len(ref))
	for i, j := range pOrder {
		pNames[i] = pred[j].Name
	}
	for i, j := range rOrder {
		rNames[i] = ref[j].Name
	}
	if !strictOrder {
		slices.Sort(pNames)
		slices.Sort(rNames)
	}
	if !slices.Equal(pNames, rNames) {
		return 0
	}
	sum := 0.0
	compared := min(len(pred), len(ref))
	for i := 0; i < compared; i++ {
		p, r := pOrder[i], rOrder[i]
		if pred[p].Name == ref[r].Name {
			sum += oldRagasArgScore(&pa[p], &ra[r], cmp)
		}
	}
	score := sum / float64(len(ref))
	if compared < len(ref) {
		score *= float64(compared) / float64(len(ref))
	}
	return score
}

func oldIdentity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

func oldSortByRagasKey(calls []Call, args []ragasArgs) []int {
	keys := make([][]string, len(calls))
	for i := range calls {
		k := []string{calls[i].Name}
		a := &args[i]
		if !a.object {
			k = append(k, a.raw)
		} else {
			ms := slices.Clone(a.members)
			slices.SortFunc(ms, func(x, y Member) int { return strings.Compare(x.Key, y.Key) })
			for j := range ms {
				k = append(k, ms[j].Key, oldPyStr(&ms[j].Value))
			}
		}
		keys[i] = k
	}
	order := oldIdentity(len(calls))
	slices.SortStableFunc(order, func(x, y int) int { return slices.Compare(keys[x], keys[y]) })
	return order
}

func oldRagasArgScore(p, r *ragasArgs, cmp ArgComparison) float64 {
	if !p.object || !r.object {
		if p.raw == r.raw {
			return 1
		}
		return 0
	}
	if len(r.members) == 0 {
		if len(p.members) == 0 {
			return 1
		}
		return 0
	}
	sum := 0.0
	for i := range r.members {
		for j := range p.members {
			if p.members[j].Key == r.members[i].Key {
				sum += cmp.score(oldPyStr(&p.members[j].Value), oldPyStr(&r.members[i].Value))
				break
			}
		}
	}
	return sum / float64(len(r.members))
}

// oldToolCallF1 is ToolCallF1 as it was.
func oldToolCallF1(pred, ref []Call) (f1, precision, recall float64) {
	set := func(calls []Call) map[string]struct{} {
		s := make(map[string]struct{}, len(calls))
		for _, c := range calls {
			if strings.TrimSpace(c.Args) == "" {
				c.Args = "{}"
			}
			s[oldKey(c, PythonEqual)] = struct{}{}
		}
		return s
	}
	actual, expected := set(pred), set(ref)
	tp := 0
	for k := range actual {
		if _, ok := expected[k]; ok {
			tp++
		}
	}
	fp := len(actual) - tp
	fn := len(expected) - tp
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	if precision+recall > 0 {
		f1 = PyRound(2*precision*recall/(precision+recall), 4)
	}
	return f1, precision, recall
}
