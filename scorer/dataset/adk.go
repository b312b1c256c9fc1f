package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// EvalSet is a Google ADK eval set (*.evalset.json, or a *.test.json
// file): the expected side of its cases.
type EvalSet struct {
	ID    string
	Name  string
	Cases []Case
}

// LoadEvalSet reads an ADK eval set file. Errors carry the path.
func LoadEvalSet(path string) (*EvalSet, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	set, err := ParseEvalSet(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if set.ID == "" {
		set.ID = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".json"), ".evalset")
		set.ID = strings.TrimSuffix(set.ID, ".test")
	}
	for i := range set.Cases {
		if set.Cases[i].ID == "" {
			set.Cases[i].ID = fmt.Sprintf("%s#%d", set.ID, i)
		}
	}
	return set, nil
}

// ParseEvalSet decodes an ADK eval set. Keys are accepted in snake_case
// and camelCase (evalCases, userContent, finalResponse, intermediateData,
// toolUses, ...). The older test-file format, a JSON array of
// {query, expected_tool_use: [{tool_name, tool_input}], reference}, is
// read as one case whose turns are the array items.
func ParseEvalSet(data []byte) (*EvalSet, error) {
	data = bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\ufeff"))
	if err := checkDepth(data); err != nil {
		return nil, err
	}
	if len(data) > 0 && data[0] == '[' {
		return parseLegacyTestFile(data)
	}
	root, err := fields(data)
	if err != nil {
		return nil, fmt.Errorf("eval set: %w", err)
	}
	set := &EvalSet{}
	if set.ID, err = optText(root, "eval_set_id"); err != nil {
		return nil, err
	}
	if set.Name, err = optText(root, "name"); err != nil {
		return nil, err
	}
	cases, ok := field(root, "eval_cases")
	if !ok {
		return nil, errors.New("eval set: missing \"eval_cases\"")
	}
	items, err := arrayValue(cases)
	if err != nil {
		return nil, fmt.Errorf("eval_cases: %w", err)
	}
	if set.Cases, err = eachItem(items, "eval_cases[%d]: %w", parseEvalCase); err != nil {
		return nil, err
	}
	return set, nil
}

// looksLikeEvalSet reports whether a JSON object has eval cases.
func looksLikeEvalSet(b []byte) bool {
	m, err := fields(b)
	if err != nil {
		return false
	}
	_, ok := field(m, "eval_cases")
	return ok
}

// field looks a key up in snake_case, then in camelCase.
func field(m map[string]json.RawMessage, snake string) (json.RawMessage, bool) {
	if v, ok := m[snake]; ok && !isNull(v) {
		return v, true
	}
	if v, ok := m[camel(snake)]; ok && !isNull(v) {
		return v, true
	}
	return nil, false
}

// camel turns snake_case into camelCase.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// optText reads an optional text member.
func optText(m map[string]json.RawMessage, key string) (string, error) {
	v, ok := field(m, key)
	if !ok {
		return "", nil
	}
	s, err := textValue(v)
	if err != nil {
		return "", fmt.Errorf("%s: %w", key, err)
	}
	return s, nil
}

// parseEvalCase reads one eval case; a case with a conversation scenario
// (user simulation) instead of a conversation has no turns.
func parseEvalCase(v json.RawMessage) (Case, error) {
	var c Case
	m, err := fields(v)
	if err != nil {
		return c, err
	}
	if c.ID, err = optText(m, "eval_id"); err != nil {
		return c, err
	}
	conv, ok := field(m, "conversation")
	if !ok {
		return c, nil
	}
	items, err := arrayValue(conv)
	if err != nil {
		return c, fmt.Errorf("conversation: %w", err)
	}
	c.Turns, err = eachItem(items, "conversation[%d]: %w", parseInvocation)
	return c, err
}

// parseInvocation reads one expected invocation.
func parseInvocation(v json.RawMessage) (Turn, error) {
	var t Turn
	m, err := fields(v)
	if err != nil {
		return t, err
	}
	if uc, ok := field(m, "user_content"); ok {
		if t.UserContent, _, err = contentText(uc); err != nil {
			return t, fmt.Errorf("user_content: %w", err)
		}
	}
	if fr, ok := field(m, "final_response"); ok {
		if t.Response, _, err = contentText(fr); err != nil {
			return t, fmt.Errorf("final_response: %w", err)
		}
		t.HasResponse = true
	}
	if id, ok := field(m, "intermediate_data"); ok {
		if t.ToolCalls, err = intermediateCalls(id); err != nil {
			return t, fmt.Errorf("intermediate_data: %w", err)
		}
		t.HasToolCalls = true
	} else {
		// An invocation without intermediate data expects no tool use,
		// as ADK reads it.
		t.ToolCalls, t.HasToolCalls = []agentrun.ToolCall{}, true
	}
	return t, nil
}

// contentText joins the text parts of a genai Content with "\n", as ADK
// does; it also returns the function calls among the parts.
func contentText(v json.RawMessage) (string, []agentrun.ToolCall, error) {
	t := bytes.TrimSpace(v)
	if len(t) > 0 && t[0] == '"' { // plain text, as some hand-written files have it
		s, err := textValue(t)
		return s, nil, err
	}
	m, err := fields(t)
	if err != nil {
		return "", nil, err
	}
	parts, ok := field(m, "parts")
	if !ok {
		return "", nil, nil
	}
	items, err := arrayValue(parts)
	if err != nil {
		return "", nil, fmt.Errorf("parts: %w", err)
	}
	var texts []string
	var calls []agentrun.ToolCall
	for i, it := range items {
		p, err := fields(it)
		if err != nil {
			return "", nil, fmt.Errorf("parts[%d]: %w", i, err)
		}
		if tx, ok := field(p, "text"); ok {
			s, err := textValue(tx)
			if err != nil {
				return "", nil, fmt.Errorf("parts[%d].text: %w", i, err)
			}
			texts = append(texts, s)
		}
		if fc, ok := field(p, "function_call"); ok {
			c, err := callValue(fc)
			if err != nil {
				return "", nil, fmt.Errorf("parts[%d].function_call: %w", i, err)
			}
			calls = append(calls, c)
		}
	}
	return strings.Join(texts, "\n"), calls, nil
}

// intermediateCalls reads the expected tool calls of an invocation:
// IntermediateData.tool_uses, or every function call of
// InvocationEvents.invocation_events in order.
func intermediateCalls(v json.RawMessage) ([]agentrun.ToolCall, error) {
	m, err := fields(v)
	if err != nil {
		return nil, err
	}
	if tu, ok := field(m, "tool_uses"); ok {
		calls, err := callsValue(tu)
		if err != nil {
			return nil, fmt.Errorf("tool_uses: %w", err)
		}
		return calls, nil
	}
	calls := []agentrun.ToolCall{}
	if ev, ok := field(m, "invocation_events"); ok {
		items, err := arrayValue(ev)
		if err != nil {
			return nil, fmt.Errorf("invocation_events: %w", err)
		}
		for i, it := range items {
			e, err := fields(it)
			if err != nil {
				return nil, fmt.Errorf("invocation_events[%d]: %w", i, err)
			}
			if c, ok := field(e, "content"); ok {
				_, cs, err := contentText(c)
				if err != nil {
					return nil, fmt.Errorf("invocation_events[%d].content: %w", i, err)
				}
				calls = append(calls, cs...)
			}
		}
	}
	return calls, nil
}

// parseLegacyTestFile reads the older ADK test-file format.
func parseLegacyTestFile(data []byte) (*EvalSet, error) {
	items, err := arrayValue(data)
	if err != nil {
		return nil, err
	}
	c := Case{}
	for i, it := range items {
		m, err := fields(it)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		var t Turn
		if t.UserContent, err = optText(m, "query"); err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		if r, ok := field(m, "reference"); ok {
			if t.Response, err = textValue(r); err != nil {
				return nil, fmt.Errorf("[%d].reference: %w", i, err)
			}
			t.HasResponse = true
		}
		t.ToolCalls, t.HasToolCalls = []agentrun.ToolCall{}, true
		if tu, ok := field(m, "expected_tool_use"); ok {
			if t.ToolCalls, err = trajectoryValue(tu); err != nil {
				return nil, fmt.Errorf("[%d].expected_tool_use: %w", i, err)
			}
		}
		c.Turns = append(c.Turns, t)
	}
	return &EvalSet{Cases: []Case{c}}, nil
}
