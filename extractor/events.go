package extractor

import (
	"encoding/json"
	"strings"
)

// GenAI event names of the v1.28–v1.36 per-message form. They arrive as
// span events or as log records joined by trace and span id.
const (
	evSystemMessage    = "gen_ai.system.message"
	evUserMessage      = "gen_ai.user.message"
	evAssistantMessage = "gen_ai.assistant.message"
	evToolMessage      = "gen_ai.tool.message"
	evChoice           = "gen_ai.choice"
	// evOperationDetails (v1.37+) carries the span's message attributes.
	evOperationDetails = "gen_ai.client.inference.operation.details"
)

// isMessageEvent reports whether name is one of the per-message events.
func isMessageEvent(name string) bool {
	switch name {
	case evSystemMessage, evUserMessage, evAssistantMessage, evToolMessage, evChoice:
		return true
	}
	return false
}

// wireEventBody is the body of a per-message event.
type wireEventBody struct {
	Content      rawJSON        `json:"content"`
	Role         rawJSON        `json:"role"`
	ID           rawJSON        `json:"id"`
	ToolCalls    []wireToolCall `json:"tool_calls"`
	FinishReason rawJSON        `json:"finish_reason"`
	Message      *struct {
		Content   rawJSON        `json:"content"`
		Role      rawJSON        `json:"role"`
		ToolCalls []wireToolCall `json:"tool_calls"`
	} `json:"message"`
}

// eventBody reads an event's fields: from the log body (a map), else from
// the gen_ai.event.content attribute (JSON), else from plain attributes.
func eventBody(ev *event) wireEventBody {
	var b wireEventBody
	raw := ev.body
	if raw == "" {
		raw = ev.attrs.str("gen_ai.event.content")
	}
	if raw != "" {
		if strings.HasPrefix(strings.TrimSpace(raw), "{") && json.Unmarshal([]byte(raw), &b) == nil {
			return b
		}
		// a plain-text body is the content itself
		b.Content = jsonText(raw)
		return b
	}
	if v, ok := ev.attrs.get("content"); ok {
		b.Content = textOrJSON(v)
	}
	for k, dst := range map[string]*rawJSON{"role": &b.Role, "id": &b.ID, "finish_reason": &b.FinishReason} {
		if v, ok := ev.attrs.get(k); ok {
			*dst = jsonText(v)
		}
	}
	if v, ok := ev.attrs.get("tool_calls"); ok {
		_ = json.Unmarshal([]byte(v), &b.ToolCalls)
	}
	if v, ok := ev.attrs.get("message"); ok {
		_ = json.Unmarshal([]byte(v), &b.Message)
	}
	return b
}

// textOrJSON returns an attribute value as JSON: structured values (already
// JSON) as they are, text as a JSON string.
func textOrJSON(v string) rawJSON {
	t := strings.TrimSpace(v)
	if len(t) > 0 && (t[0] == '[' || t[0] == '{') && json.Valid([]byte(t)) {
		return rawJSON(t)
	}
	return jsonText(v)
}

// jsonText returns s as a JSON string.
func jsonText(s string) rawJSON {
	b, _ := json.Marshal(s)
	return rawJSON(b)
}

// eventMessages converts per-message events, in order, to the input
// messages, output messages and system instructions they describe.
func eventMessages(evs []*event) (in, out []message, instructions string) {
	var sys strings.Builder
	for _, ev := range evs {
		b := eventBody(ev)
		switch ev.name {
		case evSystemMessage:
			appendLine(&sys, contentText(b.Content))
			in = append(in, message{Role: roleOr(b.Role, "system"), Parts: textParts(contentText(b.Content))})
		case evUserMessage:
			in = append(in, message{Role: roleOr(b.Role, "user"), Parts: textParts(contentText(b.Content))})
		case evAssistantMessage:
			m := message{Role: roleOr(b.Role, "assistant"), Parts: textParts(contentText(b.Content))}
			for i := range b.ToolCalls {
				m.Parts = append(m.Parts, toolCallPart(&b.ToolCalls[i]))
			}
			in = append(in, m)
		case evToolMessage:
			in = append(in, message{Role: roleOr(b.Role, "tool"), Parts: []part{{
				Type: partToolCallResponse, ID: strings.TrimSpace(rawString(b.ID)), Response: rawString(b.Content),
			}}})
		case evChoice:
			m := message{Role: "assistant", FinishReason: rawString(b.FinishReason)}
			calls := b.ToolCalls
			content := b.Content
			if b.Message != nil {
				m.Role = roleOr(b.Message.Role, "assistant")
				if len(content) == 0 {
					content = b.Message.Content
				}
				if len(calls) == 0 {
					calls = b.Message.ToolCalls
				}
			}
			m.Parts = textParts(contentText(content))
			for i := range calls {
				m.Parts = append(m.Parts, toolCallPart(&calls[i]))
			}
			out = append(out, m)
		}
	}
	return in, out, sys.String()
}

func roleOr(raw rawJSON, def string) string {
	if r := rawString(raw); r != "" {
		return r
	}
	return def
}

func textParts(s string) []part {
	if s == "" {
		return nil
	}
	return []part{{Type: partText, Content: s}}
}
