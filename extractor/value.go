package extractor

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Generic input/output values: OpenInference input.value / output.value and
// OpenLLMetry traceloop.entity.input / traceloop.entity.output. A value is
// plain text, a JSON string, a JSON message list, or a JSON object that
// wraps one of those (LangGraph {"messages":[…]}, Traceloop
// {"args":[…],"kwargs":{…}}, {"text":…}, {"output":…}).

// parseValue decodes a value into messages. Text becomes one message of
// role user, or assistant when output is set. A JSON object that holds no
// recognisable text gives no messages, so callers fall back to the model
// calls.
func parseValue(raw string, output bool) []message {
	role := "user"
	if output {
		role = "assistant"
	}
	text := func(s string) []message {
		if s == "" {
			return nil
		}
		return textMessage(role, s)
	}
	t := strings.TrimSpace(raw)
	if t == "" {
		return nil
	}
	switch t[0] {
	case '[':
		return roleMessages(t)
	case '{':
		if !gjson.Valid(t) {
			return text(raw)
		}
		obj := gjson.Parse(t)
		if m := obj.Get("messages"); m.IsArray() {
			return roleMessages(m.Raw)
		}
		if s, ok := callText(obj); ok {
			return text(s)
		}
		for _, k := range [...]string{"text", "output", "content", "response", "result", "input"} {
			if v := obj.Get(k); v.Type == gjson.String {
				return text(v.Str)
			}
		}
		return nil
	}
	return text(jsonStringValue(raw))
}

// parseInputValue and parseOutputValue are parseValue as content parse
// hooks.
func parseInputValue(raw, _ string) []message  { return parseValue(raw, false) }
func parseOutputValue(raw, _ string) []message { return parseValue(raw, true) }

// roleMessages parses a JSON message list, keeping it only when its
// messages carry roles (an arbitrary JSON array is not a conversation).
func roleMessages(t string) []message {
	msgs, err := parseMessages(t)
	if err != nil {
		return nil
	}
	for i := range msgs {
		if msgs[i].Role != "" {
			return msgs
		}
	}
	return nil
}

// callText returns the single string argument of a Traceloop
// {"args":[…],"kwargs":{…}} call wrapper.
func callText(obj gjson.Result) (string, bool) {
	args, kwargs := obj.Get("args"), obj.Get("kwargs")
	if !args.Exists() && !kwargs.Exists() {
		return "", false
	}
	var only string
	n := 0
	visit := func(_, v gjson.Result) bool {
		n++
		if v.Type == gjson.String {
			only = v.Str
		} else {
			only = ""
		}
		return n < 2
	}
	args.ForEach(visit)
	kwargs.ForEach(visit)
	if n == 1 && only != "" {
		return only, true
	}
	return "", false
}

// unwrapCallArgs returns the arguments of a decorated call recorded as
// {"args":[…],"kwargs":{…}}: the keyword arguments, or a single positional
// object; LangChain's {"input_str":…,"inputs":…} wrapper gives its inputs.
// Other values are returned unchanged.
func unwrapCallArgs(raw string) string {
	t := strings.TrimSpace(raw)
	if t == "" || t[0] != '{' || !gjson.Valid(t) {
		return raw
	}
	obj := gjson.Parse(t)
	if in := obj.Get("inputs"); in.Exists() && obj.Get("input_str").Exists() {
		if in.IsObject() {
			return in.Raw
		}
		return obj.Get("input_str").String()
	}
	args, kwargs := obj.Get("args"), obj.Get("kwargs")
	if !args.Exists() && !kwargs.Exists() {
		return raw
	}
	nKeys := 0
	obj.ForEach(func(_, _ gjson.Result) bool { nKeys++; return true })
	if nKeys > 2 {
		return raw
	}
	posArgs := args.Array()
	if len(posArgs) == 1 && posArgs[0].IsObject() && (!kwargs.Exists() || kwargs.Raw == "{}") {
		return posArgs[0].Raw
	}
	if kwargs.IsObject() && len(posArgs) == 0 {
		return kwargs.Raw
	}
	return raw
}

// unwrapToolOutput returns the content of a LangChain ToolMessage that a
// tool span recorded as {"output":{…"kwargs":{"content":…}}}; other values
// are returned unchanged.
func unwrapToolOutput(raw string) string {
	t := strings.TrimSpace(raw)
	if len(t) < 2 || t[0] != '{' || !strings.Contains(t, `"kwargs"`) || !gjson.Valid(t) {
		return raw
	}
	if c := gjson.Get(t, "output.kwargs.content"); c.Type == gjson.String {
		return c.Str
	}
	return raw
}
