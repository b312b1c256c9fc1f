package toolmatch

import "encoding/json"

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
	return v.Kind == Number && isIntLiteral(v.Text)
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
