package adk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// The prompts show tool calls, results and declarations as ADK renders
// them: JSON objects with ADK's key order (the fields' order below),
// indented by 2. Arguments and results keep their recorded key order and
// number spelling.

// functionCall is a tool call as a genai FunctionCall.
type functionCall struct {
	ID   string          `json:"id,omitempty"`
	Args json.RawMessage `json:"args"`
	Name string          `json:"name"`
}

// functionResponse is a tool call's outcome as a genai FunctionResponse.
type functionResponse struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// declaration is a declared tool as ADK lists it.
type declaration struct {
	Description string          `json:"description,omitempty"`
	Name        string          `json:"name"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// marshal renders v as compact JSON without HTML escaping.
func marshal(v any) json.RawMessage { return json.RawMessage(judgemetric.JSON(v, "")) }

// rawValue returns text compacted when it is one JSON value, else nil.
func rawValue(text string) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(strings.TrimSpace(text))); err != nil || b.Len() == 0 {
		return nil
	}
	return b.Bytes()
}

// callJSON renders c as a genai FunctionCall. Its arguments are the
// recorded JSON value, {} when none were recorded, or the raw text as a
// string when it is not JSON.
func callJSON(c *agentrun.ToolCall) functionCall {
	args := rawValue(c.Arguments)
	switch {
	case strings.TrimSpace(c.Arguments) == "":
		args = json.RawMessage("{}")
	case args == nil:
		args = marshal(c.Arguments)
	}
	return functionCall{ID: c.ID, Args: args, Name: c.Name}
}

// responseJSON renders c's outcome as a genai FunctionResponse, nil when
// the call has no recorded outcome. The response is ADK's function
// response dict: the result object itself, {"result": value} for any
// other result, or {"error": text} for a failed call.
func responseJSON(c *agentrun.ToolCall) *functionResponse {
	var v json.RawMessage
	switch r := rawValue(c.Result); {
	case c.Error != "":
		v = marshal(map[string]string{"error": c.Error})
	case c.Result == "":
		return nil
	case r != nil && r[0] == '{':
		v = r
	case r != nil:
		v = marshal(map[string]json.RawMessage{"result": r})
	default:
		v = marshal(map[string]string{"result": c.Result})
	}
	return &functionResponse{ID: c.ID, Name: c.Name, Response: v}
}

// declarationsJSON renders the declared tools as ADK's tool declaration
// block: {"tool_declarations": {"<agent>": [{description, name,
// parameters}]}}.
func declarationsJSON(agent string, defs []agentrun.ToolDefinition) string {
	items := make([]declaration, len(defs))
	for i, d := range defs {
		items[i] = declaration{Description: d.Description, Name: d.Name, Parameters: rawValue(d.Parameters)}
	}
	return indented(map[string]map[string][]declaration{"tool_declarations": {agent: items}})
}

// indented renders v indented by 2 spaces, as Python's json.dumps and
// pydantic's model_dump_json do with indent=2.
func indented(v any) string { return judgemetric.JSON(v, "  ") }

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
