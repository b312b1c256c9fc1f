package adk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// The prompts show tool calls, results and declarations as ADK renders
// them: JSON objects with ADK's key order (genai FunctionCall: id, args,
// name; FunctionResponse: id, name, response), indented by 2. Arguments
// and results keep their recorded key order and number spelling.

// member is one key of an ordered JSON object.
type member struct {
	key string
	val json.RawMessage
}

// object renders an ordered JSON object, compact.
func object(ms ...member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, m := range ms {
		if m.val == nil {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.Write(str(m.key))
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// array renders a JSON array, compact.
func array(vs []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(v)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// str renders a JSON string without HTML escaping.
func str(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return bytes.TrimRight(b.Bytes(), "\n")
}

// optStr renders s, or nil (member left out) when s is empty.
func optStr(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return str(s)
}

// rawValue returns text compacted when it is one JSON value, else nil.
func rawValue(text string) json.RawMessage {
	t := strings.TrimSpace(text)
	if t == "" || !json.Valid([]byte(t)) {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(t)); err != nil {
		return nil
	}
	return b.Bytes()
}

// argsJSON is a call's arguments: the recorded JSON object, {} when none
// were recorded, or the raw text as a string when it is not JSON.
func argsJSON(c *agentrun.ToolCall) json.RawMessage {
	if strings.TrimSpace(c.Arguments) == "" {
		return json.RawMessage("{}")
	}
	if v := rawValue(c.Arguments); v != nil {
		return v
	}
	return str(c.Arguments)
}

// callJSON renders c as a genai FunctionCall.
func callJSON(c *agentrun.ToolCall) json.RawMessage {
	return object(
		member{"id", optStr(c.ID)},
		member{"args", argsJSON(c)},
		member{"name", str(c.Name)},
	)
}

// responseValue is a call's outcome as ADK's function response dict: the
// result object itself, {"result": value} for any other result, or
// {"error": text} for a failed call; nil when nothing was recorded.
func responseValue(c *agentrun.ToolCall) json.RawMessage {
	if c.Error != "" {
		return object(member{"error", str(c.Error)})
	}
	if c.Result == "" {
		return nil
	}
	if v := rawValue(c.Result); v != nil {
		if v[0] == '{' {
			return v
		}
		return object(member{"result", v})
	}
	return object(member{"result", str(c.Result)})
}

// responseJSON renders c's outcome as a genai FunctionResponse, nil when
// the call has no recorded outcome.
func responseJSON(c *agentrun.ToolCall) json.RawMessage {
	v := responseValue(c)
	if v == nil {
		return nil
	}
	return object(
		member{"id", optStr(c.ID)},
		member{"name", str(c.Name)},
		member{"response", v},
	)
}

// declarationsJSON renders the declared tools as ADK's tool declaration
// block: {"tool_declarations": {"<agent>": [{description, name,
// parameters}]}}.
func declarationsJSON(agent string, defs []agentrun.ToolDefinition) json.RawMessage {
	items := make([]json.RawMessage, len(defs))
	for i := range defs {
		d := &defs[i]
		items[i] = object(
			member{"description", optStr(d.Description)},
			member{"name", str(d.Name)},
			member{"parameters", rawValue(d.Parameters)},
		)
	}
	return object(member{"tool_declarations", object(member{agent, array(items)})})
}

// indent re-indents compact JSON by 2 spaces, as Python's json.dumps and
// pydantic's model_dump_json do with indent=2.
func indent(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		// raw is built from valid pieces; keep it readable anyway.
		return string(raw)
	}
	return b.String()
}

// asciiOnly escapes every non-ASCII rune of a JSON text as \uXXXX (with
// surrogate pairs above U+FFFF), as Python's json.dumps does by default.
// Non-ASCII runes can only occur inside JSON strings, so the result is
// the same JSON value.
func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
