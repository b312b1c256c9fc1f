package toolmatch

import (
	"errors"
	"fmt"
	"strings"
)

// ToolCallOutput is a model output in the format of Vertex AI's tool-call
// metrics: the JSON object {"content": "...", "tool_calls": [{"name":
// "...", "arguments": {...}}]}.
type ToolCallOutput struct {
	Content string
	Calls   []ParsedCall
}

// ParsedCall is one element of tool_calls. Args is the arguments object as
// JSON text; "arguments" may be written as an object or as a string
// holding a JSON object (as OpenAI-style APIs emit it).
type ParsedCall struct {
	Call
	// Problem says why the element is not a valid tool call; empty when
	// it is valid.
	Problem string
	// args is the parse of Args when Args is a JSON object.
	args *Value
}

// Valid reports whether the output holds at least one tool call and every
// call is valid.
func (o *ToolCallOutput) Valid() bool {
	if len(o.Calls) == 0 {
		return false
	}
	for i := range o.Calls {
		if o.Calls[i].Problem != "" {
			return false
		}
	}
	return true
}

// Problem returns why the output is not Valid, or "".
func (o *ToolCallOutput) Problem() string {
	if len(o.Calls) == 0 {
		return "no tool calls"
	}
	for i := range o.Calls {
		if p := o.Calls[i].Problem; p != "" {
			return fmt.Sprintf("tool_calls[%d]: %s", i, p)
		}
	}
	return ""
}

// errNotObject reports a document that is not a JSON object.
var errNotObject = errors.New("tool-call output is not a JSON object")

// ParseToolCallOutput decodes a tool-call output. It fails when s is not
// a JSON object or its "tool_calls" is present but not an array; problems
// inside one element (no "name", a name that is not a non-empty string,
// arguments that are not an object) are recorded on that element. A
// missing or null "tool_calls" is an output with no calls.
func ParseToolCallOutput(s string) (ToolCallOutput, error) {
	v, err := Parse(strings.TrimSpace(s))
	if err != nil {
		return ToolCallOutput{}, err
	}
	if v.Kind != Object {
		return ToolCallOutput{}, errNotObject
	}
	var out ToolCallOutput
	if c, ok := v.Get("content"); ok && c.Kind == String {
		out.Content = c.Text
	}
	tc, ok := v.Get("tool_calls")
	if !ok || tc.Kind == Null {
		return out, nil
	}
	if tc.Kind != Array {
		return ToolCallOutput{}, errors.New(`"tool_calls" is not an array`)
	}
	out.Calls = make([]ParsedCall, len(tc.Elems))
	// Object arguments are written as JSON one after the other into one
	// buffer, which becomes one string their Args are cut from.
	var buf []byte
	ends := make([]int, len(tc.Elems))
	for i := range tc.Elems {
		out.Calls[i], buf = parseCallElem(&tc.Elems[i], buf)
		ends[i] = len(buf)
	}
	all := string(buf)
	start := 0
	for i := range out.Calls {
		if ends[i] > start {
			out.Calls[i].Args = all[start:ends[i]]
		}
		start = ends[i]
	}
	return out, nil
}

// parseCallElem decodes one element of tool_calls. Object arguments are
// appended to buf as JSON, for the caller to set as Args.
func parseCallElem(e *Value, buf []byte) (ParsedCall, []byte) {
	if e.Kind != Object {
		return ParsedCall{Problem: "not an object"}, buf
	}
	var pc ParsedCall
	switch n, ok := e.Get("name"); {
	case !ok:
		pc.Problem = `no "name"`
	case n.Kind != String || n.Text == "":
		pc.Problem = `"name" is not a non-empty string`
	default:
		pc.Name = n.Text
	}
	a, ok := e.Get("arguments")
	if !ok || a.Kind == Null {
		return pc, buf
	}
	if a.Kind == String {
		inner, err := Parse(strings.TrimSpace(a.Text))
		if err != nil || inner.Kind != Object {
			pc.Args = a.Text
			if pc.Problem == "" {
				pc.Problem = `"arguments" string is not a JSON object`
			}
			return pc, buf
		}
		pc.Args = strings.TrimSpace(a.Text)
		pc.args = &inner
		return pc, buf
	}
	if a.Kind != Object {
		if pc.Problem == "" {
			pc.Problem = `"arguments" is not an object`
		}
		return pc, buf
	}
	pc.args = a // Args, set by the caller, parses back to a
	return pc, AppendJSON(buf, a)
}

// AppendJSON writes v as compact JSON, members in document order and
// numbers as written.
func AppendJSON(b []byte, v *Value) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		if v.Bool {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		return append(b, v.Text...)
	case String:
		return appendJSONString(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSON(b, &v.Elems[i])
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i := range v.Members {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, v.Members[i].Key)
		b = append(b, ':')
		b = AppendJSON(b, &v.Members[i].Value)
	}
	return append(b, '}')
}

func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// ArgsObject decodes call arguments as Python would see a dict: the
// members of a JSON object. Empty arguments are an empty object; ok is
// false when the text is not a JSON object.
func ArgsObject(args string) (members []Member, ok bool) {
	t := strings.TrimSpace(args)
	if t == "" {
		return nil, true
	}
	v, err := Parse(t)
	if err != nil || v.Kind != Object {
		return nil, false
	}
	return v.Members, true
}

// PairScores compares the calls of a prediction with those of a
// reference pairwise by position, over max(len(pred), len(ref)) pairs
// (an unpaired call scores 0), and returns the mean of score over the
// pairs. Two empty lists score 1.
func PairScores(pred, ref []Call, score func(p, r *Call) float64) float64 {
	n := max(len(pred), len(ref))
	if n == 0 {
		return 1
	}
	sum := 0.0
	for i := 0; i < len(pred) && i < len(ref); i++ {
		sum += score(&pred[i], &ref[i])
	}
	return sum / float64(n)
}

// PreparedPairScores is PairScores of prepared calls, with score given
// each pair's decoded arguments (see ArgsObject).
func PreparedPairScores(pred, ref *Prepared, score func(p, r []Member) float64) float64 {
	n := max(pred.Len(), ref.Len())
	if n == 0 {
		return 1
	}
	sum := 0.0
	for i := 0; i < pred.Len() && i < ref.Len(); i++ {
		pm, _ := pred.Object(i)
		rm, _ := ref.Object(i)
		sum += score(pm, rm)
	}
	return sum / float64(n)
}

// KeyMatch is the share of the reference's argument names that the
// prediction also uses. Predicted extra names are not penalised. When the
// reference has no arguments it is 1 if the prediction has none either
// and 0 otherwise. Arguments that are not a JSON object have no names.
func KeyMatch(p, r *Call) float64 {
	pm, _ := ArgsObject(p.Args)
	rm, _ := ArgsObject(r.Args)
	return KeyMatchMembers(pm, rm)
}

// KeyMatchMembers is KeyMatch of decoded arguments (see ArgsObject).
func KeyMatchMembers(pm, rm []Member) float64 {
	if len(rm) == 0 {
		if len(pm) == 0 {
			return 1
		}
		return 0
	}
	hit := 0
	for i := range rm {
		if hasKey(pm, rm[i].Key) {
			hit++
		}
	}
	return float64(hit) / float64(len(rm))
}

// KVMatch is the share of the reference's arguments that the prediction
// has with an equal value. Values are equal as parsed JSON with numbers
// by value (JSONEqual) unless strict, when their JSON text as written
// must be identical (so 1 and 1.0 differ, as do objects with their keys
// in another order). Reference without arguments: as KeyMatch.
func KVMatch(p, r *Call, strict bool) float64 {
	pm, _ := ArgsObject(p.Args)
	rm, _ := ArgsObject(r.Args)
	return KVMatchMembers(pm, rm, strict)
}

// KVMatchMembers is KVMatch of decoded arguments (see ArgsObject).
func KVMatchMembers(pm, rm []Member, strict bool) float64 {
	if len(rm) == 0 {
		if len(pm) == 0 {
			return 1
		}
		return 0
	}
	hit := 0
	for i := range rm {
		for j := range pm {
			if pm[j].Key != rm[i].Key {
				continue
			}
			if valuesEqual(&pm[j].Value, &rm[i].Value, strict) {
				hit++
			}
			break
		}
	}
	return float64(hit) / float64(len(rm))
}

func valuesEqual(a, b *Value, strict bool) bool {
	var abuf, bbuf [128]byte
	if strict {
		return string(AppendJSON(abuf[:0], a)) == string(AppendJSON(bbuf[:0], b))
	}
	w := canon{eq: JSONEqual}
	return string(w.value(abuf[:0], a)) == string(w.value(bbuf[:0], b))
}

func hasKey(ms []Member, k string) bool {
	for i := range ms {
		if ms[i].Key == k {
			return true
		}
	}
	return false
}
