package toolmatch

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ToolCallOutput is a model output in the format of Vertex AI's tool-call
// metrics: the JSON object {"content": "...", "tool_calls": [{"name":
// "...", "arguments": {...}}]}.
type ToolCallOutput struct {
	Content string
	Calls   []ParsedCall
}

// ParsedCall is one element of tool_calls.
type ParsedCall struct {
	Name string
	// Arguments are the members of the arguments object, written as an
	// object or as a string holding a JSON object (as OpenAI-style APIs
	// emit it); nil when the arguments are absent, null, empty or not an
	// object.
	Arguments []Member
	// Problem says why the element is not a valid tool call; empty when
	// it is valid.
	Problem string
}

// Valid reports whether the output holds at least one tool call and every
// call is valid.
func (o *ToolCallOutput) Valid() bool {
	return o.Problem() == ""
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

// ParseToolCallOutput decodes a tool-call output. It fails when s is not
// a JSON object or its "tool_calls" is present but not an array; problems
// inside one element (no "name", a name that is not a non-empty string,
// arguments that are not an object) are recorded on that element. A
// missing or null "tool_calls" is an output with no calls.
func ParseToolCallOutput(s string) (ToolCallOutput, error) {
	v, err := Decode(strings.TrimSpace(s))
	if err != nil {
		return ToolCallOutput{}, err
	}
	if v.Kind != Object {
		return ToolCallOutput{}, errors.New("tool-call output is not a JSON object")
	}
	var out ToolCallOutput
	if c := v.member("content"); c != nil && c.Kind == String {
		out.Content = c.Text
	}
	tc := v.member("tool_calls")
	if tc == nil || tc.Kind == Null {
		return out, nil
	}
	if tc.Kind != Array {
		return ToolCallOutput{}, errors.New(`"tool_calls" is not an array`)
	}
	out.Calls = make([]ParsedCall, len(tc.Elems))
	for i := range tc.Elems {
		out.Calls[i] = parseCall(&tc.Elems[i])
	}
	return out, nil
}

// parseCall decodes one element of tool_calls.
func parseCall(e *Value) ParsedCall {
	if e.Kind != Object {
		return ParsedCall{Problem: "not an object"}
	}
	var pc ParsedCall
	switch n := e.member("name"); {
	case n == nil:
		pc.Problem = `no "name"`
	case n.Kind != String || n.Text == "":
		pc.Problem = `"name" is not a non-empty string`
	default:
		pc.Name = n.Text
	}
	switch a := e.member("arguments"); {
	case a == nil || a.Kind == Null:
	case a.Kind == Object:
		pc.Arguments = a.Members
	case a.Kind == String:
		inner, err := Decode(strings.TrimSpace(a.Text))
		if err == nil && inner.Kind == Object {
			pc.Arguments = inner.Members
		} else {
			pc.Problem = cmp.Or(pc.Problem, `"arguments" string is not a JSON object`)
		}
	default:
		pc.Problem = cmp.Or(pc.Problem, `"arguments" is not an object`)
	}
	return pc
}

// PairScores compares the calls of a prediction with those of a
// reference pairwise by position, over max(len(pred), len(ref)) pairs
// (an unpaired call scores 0), and returns the mean of score over the
// pairs' arguments. Two empty lists score 1.
func PairScores(pred, ref []ParsedCall, score func(p, r []Member) float64) float64 {
	n := max(len(pred), len(ref))
	if n == 0 {
		return 1
	}
	sum := 0.0
	for i := 0; i < len(pred) && i < len(ref); i++ {
		sum += score(pred[i].Arguments, ref[i].Arguments)
	}
	return sum / float64(n)
}

// KeyMatch is the share of the reference's argument names that the
// prediction also uses. Predicted extra names are not penalised. When the
// reference has no arguments it is 1 if the prediction has none either
// and 0 otherwise.
func KeyMatch(pred, ref []Member) float64 {
	return argsMatch(pred, ref, func(*Value, *Value) bool { return true })
}

// KVMatch is the share of the reference's arguments that the prediction
// has with an equal value. Values are equal as parsed JSON with numbers
// by value (JSONEqual) unless strict, when they must be written alike:
// the same number literals (so 1 and 1.0 differ), strings, and elements
// and object members in the same order. Reference without arguments: as
// KeyMatch.
func KVMatch(pred, ref []Member, strict bool) float64 {
	if strict {
		return argsMatch(pred, ref, writtenAlike)
	}
	return argsMatch(pred, ref, func(p, r *Value) bool {
		return string(appendKey(nil, p, appendPythonNumber, false)) == string(appendKey(nil, r, appendPythonNumber, false))
	})
}

// argsMatch is the share of the reference's arguments that the prediction
// has with a value equal under equal; see KeyMatch for a reference
// without arguments.
func argsMatch(pred, ref []Member, equal func(p, r *Value) bool) float64 {
	if len(ref) == 0 {
		return boolScore(len(pred) == 0)
	}
	p := Value{Kind: Object, Members: pred}
	hit := 0
	for i := range ref {
		if pv := p.member(ref[i].Key); pv != nil && equal(pv, &ref[i].Value) {
			hit++
		}
	}
	return float64(hit) / float64(len(ref))
}

// writtenAlike reports whether a and b are written alike: the same kind,
// boolean, number literal or string, and elements and members alike in
// the same order.
func writtenAlike(a, b *Value) bool {
	if a.Kind != b.Kind || a.Bool != b.Bool || a.Text != b.Text {
		return false
	}
	return slices.EqualFunc(a.Elems, b.Elems, func(x, y Value) bool { return writtenAlike(&x, &y) }) &&
		slices.EqualFunc(a.Members, b.Members, func(x, y Member) bool { return x.Key == y.Key && writtenAlike(&x.Value, &y.Value) })
}
