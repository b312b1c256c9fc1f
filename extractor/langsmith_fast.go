package extractor

import (
	"strings"

	"github.com/tidwall/gjson"
)

// The fast LangChain readers below decode message lists with gjson, whose
// values are substrings of the input. They decline (and the struct decoder
// of langsmith.go reads the value) whenever they are not sure to read it
// exactly as the struct decoder does: invalid or too deeply nested JSON,
// escaped, repeated or case-variant keys, null roles and types, and values
// of a type the struct decoder rejects.

// Keys of wireLCMessage, wireLCToolCall and its function.
var (
	lcNames     = [...]string{"role", "type", "content", "tool_calls", "tool_call_id", "id", "kwargs", "message", "text"}
	lcCallNames = [...]string{"id", "name", "args", "function"}
	lcFuncNames = [...]string{"name", "arguments"}
	lsInNames   = [...]string{"messages", "input", "question", "query", "prompt"}
	lsOutNames  = [...]string{"messages", "generations", "output"}
	lsGenNames  = [...]string{"text", "message"}
)

// Field positions of lcNames.
const (
	lcRoleF = iota
	lcTypeF
	lcContentF
	lcToolCallsF
	lcToolCallIDF
	lcIDF
	lcKwargsF
	lcMessageF
)

// lcFields holds the raw fields of one LangChain message object.
type lcFields [len(lcNames)]string

// lcCallsOK reports whether a tool_calls value decodes as []wireLCToolCall
// as read here.
func lcCallsOK(c string) bool {
	if absent(c) {
		return true
	}
	if c[0] != '[' {
		return false
	}
	ok := true
	gjson.Parse(c).ForEach(func(_, tc gjson.Result) bool {
		_, ok = lcCall(tc)
		return ok
	})
	return ok
}

// lcCall reads one tool call as toolCallPart-like lcMessage code does.
func lcCall(tc gjson.Result) (part, bool) {
	var cv [len(lcCallNames)]string
	if !tc.IsObject() || !readKeys(tc, lcCallNames[:], cv[:]) {
		return part{}, false
	}
	p := part{Type: partToolCall, ID: strings.TrimSpace(rawStr(cv[0])), Name: rawStr(cv[1]), Arguments: rawStr(cv[2])}
	if f := cv[3]; !absent(f) {
		var fv [len(lcFuncNames)]string
		if f[0] != '{' || !readKeys(gjson.Parse(f), lcFuncNames[:], fv[:]) {
			return part{}, false
		}
		setStr(&p.Name, rawStr(fv[0]))
		setStr(&p.Arguments, rawStr(fv[1]))
	}
	return p, true
}

// fastLCMessage is lcMessage for object o; ok is false when the struct
// decoder might read o differently. inherit gives o the id of the
// constructor object it is the kwargs of.
func fastLCMessage(o gjson.Result, id string, inherit bool) (message, bool) {
	var v lcFields
	if !o.IsObject() || !readKeys(o, lcNames[:], v[:]) || v[lcRoleF] == "null" || v[lcTypeF] == "null" {
		return message{}, false
	}
	if inherit && v[lcRoleF] == "" && v[lcTypeF] == "" {
		v[lcIDF] = id
	}
	if x := v[lcMessageF]; !absent(x) {
		// not read, but the struct decoder fails on a bad one
		if x[0] != '{' {
			return message{}, false
		}
		if _, ok := fastLCMessage(gjson.Parse(x), "", false); !ok {
			return message{}, false
		}
	}
	calls := v[lcToolCallsF]
	if k := v[lcKwargsF]; !absent(k) {
		if k[0] != '{' || !lcCallsOK(calls) {
			return message{}, false
		}
		return fastLCMessage(gjson.Parse(k), v[lcIDF], true)
	}
	m := message{Role: fastLCRole(&v)}
	if m.Role == "tool" {
		if !lcCallsOK(calls) {
			return message{}, false
		}
		m.Parts = []part{{Type: partToolCallResponse, ID: strings.TrimSpace(rawStr(v[lcToolCallIDF])), Response: contentStr(v[lcContentF])}}
		return m, true
	}
	t := contentStr(v[lcContentF])
	n := 0
	if t != "" {
		n++
	}
	var list gjson.Result
	if !absent(calls) {
		if calls[0] != '[' {
			return message{}, false
		}
		list = gjson.Parse(calls)
		list.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	}
	if n == 0 {
		return m, true
	}
	m.Parts = make([]part, 0, n)
	if t != "" {
		m.Parts = append(m.Parts, part{Type: partText, Content: t})
	}
	ok := true
	list.ForEach(func(_, tc gjson.Result) bool {
		var p part
		if p, ok = lcCall(tc); ok {
			m.Parts = append(m.Parts, p)
		}
		return ok
	})
	return m, ok
}

// fastLCRole is lcRole for read fields.
func fastLCRole(v *lcFields) string {
	if r := rawStr(v[lcRoleF]); r != "" {
		return r
	}
	if r := lcTypeRole(rawStr(v[lcTypeF])); r != "" {
		return r
	}
	last := ""
	gjson.Parse(v[lcIDF]).ForEach(func(_, x gjson.Result) bool {
		last = x.Str
		return true
	})
	return lcTypeRole(last)
}

// fastLCAppend appends the messages of list to out; ok is false when it
// declines.
func fastLCAppend(out []message, list gjson.Result) ([]message, bool) {
	ok := true
	list.ForEach(func(_, it gjson.Result) bool {
		if it.IsArray() {
			out, ok = fastLCAppend(out, it)
			return ok
		}
		var m message
		if m, ok = fastLCMessage(it, "", false); ok && (m.Role != "" || len(m.Parts) > 0) {
			out = append(out, m)
		}
		return ok
	})
	return out, ok
}

// fastLCMessages is lcMessages for a list t taken from checked JSON; ok is
// false when it declines.
func fastLCMessages(t string) ([]message, bool) {
	if t == "" || t[0] != '[' {
		return nil, false
	}
	// room for a few messages: counting them first costs a parse
	out, ok := fastLCAppend(make([]message, 0, 4), gjson.Parse(t))
	if !ok {
		return nil, false
	}
	if len(out) == 0 {
		return nil, true
	}
	return out, true
}

// fastLangSmithInput is parseLangSmithInput for t, trimmed and starting
// with '[' or '{'.
func fastLangSmithInput(t string) ([]message, bool) {
	if !fastReadable(t) {
		return nil, false
	}
	if t[0] == '[' {
		return fastLCMessages(t)
	}
	var v [len(lsInNames)]string
	if !readKeys(gjson.Parse(t), lsInNames[:], v[:]) {
		return nil, false
	}
	for _, x := range v {
		if x == "null" {
			return nil, false
		}
	}
	if v[0] != "" {
		return fastLCMessages(v[0])
	}
	for _, x := range v[1:] {
		if txt := contentStr(x); txt != "" {
			return textMessage("user", txt), true
		}
	}
	return nil, true
}

// fastLangSmithOutput is parseLangSmithOutput for t, trimmed and starting
// with '[' or '{'.
func fastLangSmithOutput(t string) ([]message, bool) {
	if !fastReadable(t) {
		return nil, false
	}
	if t[0] == '[' {
		msgs, ok := fastLCMessages(t)
		return lastAssistant(msgs), ok
	}
	var v [len(lsOutNames)]string
	if !readKeys(gjson.Parse(t), lsOutNames[:], v[:]) {
		return nil, false
	}
	for _, x := range v {
		if x == "null" {
			return nil, false
		}
	}
	var first message // generations[0][0]
	hasFirst := false
	if g := v[1]; g != "" {
		if g[0] != '[' {
			return nil, false
		}
		ok := true
		gjson.Parse(g).ForEach(func(i, batch gjson.Result) bool {
			if !batch.IsArray() {
				ok = false
				return false
			}
			batch.ForEach(func(j, gen gjson.Result) bool {
				var gv [len(lsGenNames)]string
				if !gen.IsObject() || !readKeys(gen, lsGenNames[:], gv[:]) {
					ok = false
					return false
				}
				isFirst := i.Int() == 0 && j.Int() == 0
				if m := gv[1]; !absent(m) {
					if m[0] != '{' {
						ok = false
						return false
					}
					var msg message
					if msg, ok = fastLCMessage(gjson.Parse(m), "", false); !ok {
						return false
					}
					if isFirst {
						if msg.Role == "" {
							msg.Role = "assistant"
						}
						first, hasFirst = msg, true
					}
				} else if isFirst {
					first, hasFirst = message{Role: "assistant", Parts: textParts(rawStr(gv[0]))}, true
				}
				return true
			})
			return ok
		})
		if !ok {
			return nil, false
		}
	}
	switch {
	case v[0] != "":
		msgs, ok := fastLCMessages(v[0])
		return lastAssistant(msgs), ok
	case hasFirst:
		return []message{first}, true
	case v[2] != "":
		o := v[2]
		if o[0] == '{' {
			msg, ok := fastLCMessage(gjson.Parse(o), "", false)
			if !ok {
				return nil, false
			}
			msg.Role = "assistant"
			return []message{msg}, true
		}
		return textMessage("assistant", contentStr(o)), true
	}
	return nil, true
}

// fastToolInput reads a tool run's inputs object t (trimmed, starting with
// '{') as langsmithToolInput's map does: in is the raw "input" value when
// it is the only key, else "". ok is false when it declines.
func fastToolInput(t string) (in string, ok bool) {
	if !fastReadable(t) {
		return "", false
	}
	var first string
	n := 0
	ok = true
	gjson.Parse(t).ForEach(func(k, v gjson.Result) bool {
		if strings.IndexByte(k.Raw, '\\') >= 0 || (n > 0 && k.Str == first) {
			ok = false // escaped or repeated keys: the map decides
			return false
		}
		n++
		if n == 1 {
			first, in = k.Str, v.Raw
		}
		return n < 2
	})
	if !ok || n != 1 || first != "input" {
		return "", ok
	}
	return in, true
}

// fastToolOutput reads a tool run's outputs object t (trimmed, starting
// with '{') as langsmithToolOutput does when the output is not an object:
// o is the raw "output" value, "" when absent. ok is false when it
// declines.
func fastToolOutput(t string) (o string, ok bool) {
	if !fastReadable(t) {
		return "", false
	}
	var v [1]string
	if !readKeys(gjson.Parse(t), []string{"output"}, v[:]) || v[0] == "null" || strings.HasPrefix(v[0], "{") {
		return "", false
	}
	return v[0], true
}
