package simulator

import (
	"encoding/json"
)

// The JSON shapes of gen_ai.system_instructions, gen_ai.input.messages,
// gen_ai.output.messages and gen_ai.tool.definitions (GenAI semconv v1.37+).

// messagePart is one part of a chat message.
type messagePart struct {
	Type      string          `json:"type"`
	Content   string          `json:"content,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Response  string          `json:"response,omitempty"`
}

// chatMessage is an input message, or an output message when FinishReason
// is set.
type chatMessage struct {
	Role         string        `json:"role"`
	Parts        []messagePart `json:"parts"`
	FinishReason string        `json:"finish_reason,omitempty"`
}

// toolDefinition is one entry of gen_ai.tool.definitions.
type toolDefinition struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

func textPart(s string) messagePart { return messagePart{Type: "text", Content: s} }

// argumentsJSON returns the arguments as a JSON value: the object itself
// when the text is valid JSON, else the text as a JSON string.
func argumentsJSON(args string) json.RawMessage {
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

// toolResponseText is what the model sees as the result of a call.
func toolResponseText(c *Call) string {
	if c.ErrorType != "" {
		return "Error: " + c.ErrorType + ": " + c.Error
	}
	return c.Result
}

func toolCallParts(calls []callPlan) []messagePart {
	parts := make([]messagePart, 0, len(calls))
	for i := range calls {
		c := &calls[i].Call
		parts = append(parts, messagePart{Type: "tool_call", ID: c.ID, Name: c.Name, Arguments: argumentsJSON(c.Arguments)})
	}
	return parts
}

// inputMessages is the conversation sent to the model before turn upto:
// the user's request, then each earlier turn's tool calls and responses.
func inputMessages(p *plan, upto int) []chatMessage {
	msgs := []chatMessage{{Role: "user", Parts: []messagePart{textPart(p.input)}}}
	for _, t := range p.turns[:upto] {
		msgs = append(msgs, chatMessage{Role: "assistant", Parts: toolCallParts(t.calls)})
		parts := make([]messagePart, 0, len(t.calls))
		for i := range t.calls {
			c := &t.calls[i].Call
			parts = append(parts, messagePart{Type: "tool_call_response", ID: c.ID, Response: toolResponseText(c)})
		}
		msgs = append(msgs, chatMessage{Role: "tool", Parts: parts})
	}
	return msgs
}

// turnOutput is the model response that requested a turn's calls.
func turnOutput(t *turnPlan) []chatMessage {
	return []chatMessage{{Role: "assistant", Parts: toolCallParts(t.calls), FinishReason: "tool_call"}}
}

// finalOutput is the model's last response: the answer, or an empty
// message cut off by the token limit.
func finalOutput(text string) []chatMessage {
	if text == "" {
		return []chatMessage{{Role: "assistant", Parts: []messagePart{}, FinishReason: "length"}}
	}
	return []chatMessage{{Role: "assistant", Parts: []messagePart{textPart(text)}, FinishReason: "stop"}}
}

func toolDefinitions(sc *scenario) []toolDefinition {
	defs := make([]toolDefinition, 0, len(sc.Tools))
	for _, t := range sc.Tools {
		defs = append(defs, toolDefinition{Type: "function", Name: t.Name, Description: t.Description, Parameters: json.RawMessage(t.Parameters)})
	}
	return defs
}

// mustJSON encodes values built from checked tables; encoding them cannot
// fail, and a failure would be a programming error caught by the tests.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return `"` + err.Error() + `"`
	}
	return string(b)
}
