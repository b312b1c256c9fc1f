package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// textValue reads a text column: a JSON string is its content; a number
// or boolean is its JSON text; an object or array is its JSON text as
// written (a tool-call JSON given as an object rather than a string).
func textValue(v json.RawMessage) (string, error) {
	t := bytes.TrimSpace(v)
	if len(t) == 0 {
		return "", nil
	}
	if t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return "", fmt.Errorf("invalid string: %w", err)
		}
		return s, nil
	}
	if !json.Valid(t) {
		return "", errors.New("invalid JSON value")
	}
	return string(t), nil
}

// jsonValue reads a column that holds JSON: either the value itself, or a
// string whose content is JSON (as Vertex datasets often store
// trajectories).
func jsonValue(v json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(v)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return nil, fmt.Errorf("invalid string: %w", err)
		}
		st := bytes.TrimSpace([]byte(s))
		if err := checkDepth(st); err != nil {
			return nil, err
		}
		if !json.Valid(st) {
			return nil, errors.New("string does not hold valid JSON")
		}
		return st, nil
	}
	return t, nil
}

// arrayValue reads a JSON array (or a string holding one) into its items.
func arrayValue(v json.RawMessage) ([]json.RawMessage, error) {
	j, err := jsonValue(v)
	if err != nil {
		return nil, err
	}
	if isNull(j) {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(j, &items); err != nil {
		return nil, errors.New("must be a JSON array")
	}
	return items, nil
}

// fields decodes a JSON object into its members.
func fields(v json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(v, &m); err != nil || m == nil {
		return nil, errors.New("must be a JSON object")
	}
	return m, nil
}

// argsValue reads tool arguments: an object (kept as written), a string
// holding an object, or null/absent (no arguments recorded: Arguments is
// empty and not valid, which is not the same as {}).
func argsValue(v json.RawMessage) (string, bool, error) {
	if isNull(v) {
		return "", false, nil
	}
	j, err := jsonValue(v)
	if err != nil {
		return "", false, err
	}
	if len(j) == 0 || j[0] != '{' {
		return "", false, errors.New("must be a JSON object")
	}
	return string(j), true, nil
}

// trajectoryValue reads a Vertex trajectory: a list of
// {tool_name, tool_input} (tool_input optional as an object or a JSON
// string; tool_output optional).
func trajectoryValue(v json.RawMessage) ([]agentrun.ToolCall, error) {
	return listValue(v, func(it json.RawMessage) (agentrun.ToolCall, error) {
		var tc agentrun.ToolCall
		m, err := fields(it)
		if err != nil {
			return tc, err
		}
		name, ok := m["tool_name"]
		if !ok {
			return tc, errors.New(`missing "tool_name"`)
		}
		if err := json.Unmarshal(name, &tc.Name); err != nil {
			return tc, errors.New(`"tool_name" must be a string`)
		}
		if tc.Arguments, tc.ArgumentsValid, err = argsValue(m["tool_input"]); err != nil {
			return tc, fmt.Errorf(`"tool_input" %w`, err)
		}
		if out, ok := m["tool_output"]; ok && !isNull(out) {
			if tc.Result, err = textValue(out); err != nil {
				return tc, fmt.Errorf(`"tool_output" %w`, err)
			}
		}
		return tc, nil
	})
}

// callsValue reads a list of {name, args} tool calls (Ragas, ADK).
// "arguments" and "id" are accepted too.
func callsValue(v json.RawMessage) ([]agentrun.ToolCall, error) {
	return listValue(v, callValue)
}

// callValue reads one {name, args} tool call.
func callValue(v json.RawMessage) (agentrun.ToolCall, error) {
	var tc agentrun.ToolCall
	m, err := fields(v)
	if err != nil {
		return tc, err
	}
	name, ok := m["name"]
	if !ok {
		return tc, errors.New("missing \"name\"")
	}
	if err := json.Unmarshal(name, &tc.Name); err != nil {
		return tc, errors.New("\"name\" must be a string")
	}
	args, key := m["args"], "args"
	if _, ok := m["args"]; !ok {
		args, key = m["arguments"], "arguments"
	}
	if tc.Arguments, tc.ArgumentsValid, err = argsValue(args); err != nil {
		return tc, fmt.Errorf("%q %w", key, err)
	}
	if id, ok := m["id"]; ok && !isNull(id) {
		if tc.ID, err = textValue(id); err != nil {
			return tc, fmt.Errorf("\"id\" %w", err)
		}
	}
	return tc, nil
}

// stringsValue reads a list of strings.
func stringsValue(v json.RawMessage) ([]string, error) {
	return listValue(v, func(it json.RawMessage) (string, error) {
		var s string
		if err := json.Unmarshal(it, &s); err != nil {
			return "", errors.New("must be a string")
		}
		return s, nil
	})
}

// listValue reads a JSON array (or a string holding one) with read; an
// item's error names the item.
func listValue[T any](v json.RawMessage, read func(json.RawMessage) (T, error)) ([]T, error) {
	items, err := arrayValue(v)
	if err != nil {
		return nil, err
	}
	return eachItem(items, "item %d: %w", read)
}

// eachItem reads items with read; an item's error is wrapped with
// itemFormat, given the item's index and the error.
func eachItem[T any](items []json.RawMessage, itemFormat string, read func(json.RawMessage) (T, error)) ([]T, error) {
	out := make([]T, 0, len(items))
	for i, it := range items {
		x, err := read(it)
		if err != nil {
			return nil, fmt.Errorf(itemFormat, i, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// numberValue reads a number (or a string holding one).
func numberValue(v json.RawMessage) (float64, error) {
	s, err := textValue(v)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, errors.New("must be a number")
	}
	return f, nil
}

// boolValue reads a boolean: true/false, 1/0, or a string of either.
func boolValue(v json.RawMessage) (bool, error) {
	s, err := textValue(v)
	if err != nil {
		return false, err
	}
	switch s {
	case "true", "True", "1", "1.0":
		return true, nil
	case "false", "False", "0", "0.0":
		return false, nil
	}
	return false, errors.New("must be a boolean (true/false or 1/0)")
}
