package toolmatch

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
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

// Decoder decodes argument texts as Decode does. The metrics pass one
// that decodes each distinct text once per instance (SharedDecoder);
// callers must not modify the values it returns.
type Decoder func(text string) (Value, error)

// Decode decodes one JSON document in document order. It accepts what
// encoding/json accepts and decodes strings as it does (escapes resolved,
// invalid UTF-8 and lone surrogates as U+FFFD). A repeated object key
// keeps its first position and its last value, as in a Python dict built
// by json.loads.
//
// encoding/json checks the document; gjson then reads it in order. Each
// container is read once per container around it, so the cost grows with
// the nesting depth times the size.
func Decode(s string) (Value, error) {
	if b := []byte(s); !json.Valid(b) {
		return Value{}, json.Unmarshal(b, new(any)) // encoding/json's syntax error
	}
	return fromResult(gjson.Parse(s)), nil
}

// fromResult converts a value of a valid document.
func fromResult(r gjson.Result) Value {
	switch r.Type {
	case gjson.Null:
		return Value{Kind: Null}
	case gjson.False:
		return Value{Kind: Bool}
	case gjson.True:
		return Value{Kind: Bool, Bool: true}
	case gjson.Number:
		return Value{Kind: Number, Text: r.Raw}
	case gjson.String:
		return Value{Kind: String, Text: decodeString(r.Raw)}
	}
	// Elements and members are gathered in room on the stack, enough for
	// most containers, and copied out once (nil when there are none).
	if r.IsArray() {
		var room [4]Value
		elems := room[:0]
		r.ForEach(func(_, e gjson.Result) bool {
			elems = append(elems, fromResult(e))
			return true
		})
		return Value{Kind: Array, Elems: append([]Value(nil), elems...)}
	}
	var room [4]Member
	members := room[:0]
	at := make(map[string]int) // member positions by key
	r.ForEach(func(k, e gjson.Result) bool {
		key := decodeString(k.Raw)
		if i, ok := at[key]; ok {
			members[i].Value = fromResult(e)
			return true
		}
		at[key] = len(members)
		members = append(members, Member{Key: key, Value: fromResult(e)})
		return true
	})
	return Value{Kind: Object, Members: append([]Member(nil), members...)}
}

// decodeString decodes the quoted JSON string raw as encoding/json does.
func decodeString(raw string) string {
	if !strings.Contains(raw, `\`) && utf8.ValidString(raw) {
		return raw[1 : len(raw)-1] // nothing to decode
	}
	var s string
	_ = json.Unmarshal([]byte(raw), &s) // valid: its document was checked
	return s
}

// member returns the value of the member named key of an Object, or nil.
func (v *Value) member(key string) *Value {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value
		}
	}
	return nil
}

// isInt reports whether a Number was written as an integer literal (no
// fraction or exponent), which Python decodes as int rather than float.
func (v *Value) isInt() bool {
	return v.Kind == Number && !strings.ContainsAny(v.Text, ".eE")
}
