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

// errTrailing reports bytes after the top-level value.
var errTrailing = errors.New("invalid JSON: data after top-level value")

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// Parse decodes one JSON document. It accepts exactly what json.Valid
// accepts. A repeated object key keeps its first position and its last
// value, as a Python dict built by json.loads does.
func Parse(s string) (Value, error) {
	p := parser{s: s}
	p.space()
	v, err := p.value(0)
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
type parser struct {
	s string
	i int
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

func (p *parser) value(depth int) (Value, error) {
	if p.i >= len(p.s) {
		return Value{}, p.fail("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
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

func (p *parser) object(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.fail("nested too deeply")
	}
	p.i++ // {
	v := Value{Kind: Object}
	var index map[string]int // built once the object is large
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return Value{}, p.fail("expected object key")
		}
		k, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.fail("expected ':'")
		}
		p.i++
		p.space()
		e, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		v.Members, index = addMember(v.Members, index, k, e)
		p.space()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unexpected end of object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
		case '}':
			p.i++
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.fail("nested too deeply")
	}
	p.i++ // [
	v := Value{Kind: Array, Elems: []Value{}}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		e, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		v.Elems = append(v.Elems, e)
		p.space()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unexpected end of array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
		case ']':
			p.i++
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or ']'")
		}
	}
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

// addMember adds k: e to an object's members, replacing the value of an
// earlier member with the same key in place.
func addMember(ms []Member, index map[string]int, k string, e Value) ([]Member, map[string]int) {
	if index == nil && len(ms) >= indexAfter {
		index = make(map[string]int, 2*len(ms))
		for i := range ms {
			index[ms[i].Key] = i
		}
	}
	if index != nil {
		if i, ok := index[k]; ok {
			ms[i].Value = e
			return ms, index
		}
		index[k] = len(ms)
		return append(ms, Member{Key: k, Value: e}), index
	}
	for i := range ms {
		if ms[i].Key == k {
			ms[i].Value = e
			return ms, nil
		}
	}
	return append(ms, Member{Key: k, Value: e}), nil
}
