package extractor

import (
	"bytes"
	"errors"
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
	json "github.com/goccy/go-json"
	"strings"
)

// Message part types of the GenAI conventions (v1.37+).
const (
	partText             = "text"
	partToolCall         = "tool_call"
	partToolCallResponse = "tool_call_response"
)

// part is one decoded message part. Only the fields decoders use are kept.
type part struct {
	Type      string
	Content   string // text and reasoning parts
	ID        string // tool_call and tool_call_response parts
	Name      string // tool_call parts
	Arguments string // tool_call parts: raw JSON (an object normally)
	Response  string // tool_call_response parts: the string, or raw JSON
}

// message is one decoded chat message.
type message struct {
	Role         string
	Parts        []part
	FinishReason string
}

// text joins the message's text parts. A single text part is returned as
// it is.
func (m *message) text() string {
	var only string
	n := 0
	for _, p := range m.Parts {
		if p.Type == partText && p.Content != "" {
			only = p.Content
			n++
		}
	}
	if n <= 1 {
		return only
	}
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Type != partText || p.Content == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Content)
	}
	return b.String()
}

// wirePart and wireMessage read the JSON of gen_ai.input.messages,
// gen_ai.output.messages and gen_ai.system_instructions. Every field is raw
// so that a value of an unexpected type degrades that field only.
type wirePart struct {
	Type      json.RawMessage `json:"type"`
	Content   json.RawMessage `json:"content"`
	Text      json.RawMessage `json:"text"`
	ID        json.RawMessage `json:"id"`
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
	Result    json.RawMessage `json:"result"`
}

type wireToolCall struct {
	ID       json.RawMessage `json:"id"`
	Function *struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
	Name      json.RawMessage `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type wireMessage struct {
	Role         json.RawMessage `json:"role"`
	Parts        []wirePart      `json:"parts"`
	FinishReason json.RawMessage `json:"finish_reason"`
	// OpenAI-style messages (older emitters): content and tool_calls.
	Content    json.RawMessage `json:"content"`
	ToolCalls  []wireToolCall  `json:"tool_calls"`
	ToolCallID json.RawMessage `json:"tool_call_id"`
}

// rawString returns a JSON string's value, or the raw JSON text of any
// other value ("" for null or absent). raw must be valid JSON, as the
// values json.Unmarshal hands out are.
func rawString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		if len(raw) >= 2 && bytes.IndexByte(raw, '\\') < 0 {
			return string(raw[1 : len(raw)-1]) // no escapes: the bytes are the value
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// contentText reads message content given as a string, an array of parts
// ({"type":"text","content"|"text":...} or plain strings) or an object with
// a text field.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return rawString(raw)
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return string(raw)
		}
		var b strings.Builder
		for _, it := range items {
			t := contentText(it)
			if t == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t)
		}
		return b.String()
	case '{':
		var p wirePart
		if json.Unmarshal(raw, &p) != nil {
			return string(raw)
		}
		if typ := rawString(p.Type); typ != "" && typ != partText {
			return ""
		}
		if t := rawString(p.Content); t != "" {
			return t
		}
		return rawString(p.Text)
	case 'n':
		return ""
	}
	return string(raw)
}

func decodePart(raw json.RawMessage) (part, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		return part{Type: partText, Content: rawString(raw)}, true
	}
	var w wirePart
	if json.Unmarshal(raw, &w) != nil {
		return part{}, false
	}
	return convertPart(&w), true
}

// convertPart normalises a decoded wire part.
func convertPart(w *wirePart) part {
	p := part{Type: rawString(w.Type), ID: strings.TrimSpace(rawString(w.ID)), Name: rawString(w.Name)}
	switch p.Type {
	case partToolCall:
		p.Arguments = rawString(w.Arguments)
	case partToolCallResponse:
		resp := w.Response
		if len(resp) == 0 {
			resp = w.Result
		}
		p.Response = rawString(resp)
	case partText, "reasoning", "":
		p.Content = contentText(w.Content)
		if p.Content == "" {
			p.Content = rawString(w.Text)
		}
		if p.Type == "" {
			p.Type = partText
		}
	}
	return p
}

// parseMessages decodes a JSON array of chat messages: the v1.37 parts
// form, with OpenAI-style content/tool_calls messages accepted too. Elements
// that do not decode are skipped; an input that is not a JSON array is an
// error.
func parseMessages(raw string) ([]message, error) {
	t := strings.TrimSpace(raw)
	if t == "" || t[0] != '[' {
		return nil, errNotArray
	}
	if out, ok := fastMessages(t); ok {
		return out, nil
	}
	return decodeMessages(t)
}

// decodeMessages is parseMessages with the struct decoder, for any input;
// t is trimmed and starts with '['.
func decodeMessages(t string) ([]message, error) {
	// One pass: every field is raw or a slice of raw-field structs, so a
	// value of an unexpected type only leaves that field empty.
	var ws []wireMessage
	if err := json.Unmarshal([]byte(t), &ws); err != nil {
		var typeErr *json.UnmarshalTypeError
		if !errors.As(err, &typeErr) {
			return nil, err
		}
	}
	out := make([]message, 0, len(ws))
	for i := range ws {
		w := &ws[i]
		m := message{Role: rawString(w.Role), FinishReason: rawString(w.FinishReason)}
		for j := range w.Parts {
			m.Parts = append(m.Parts, convertPart(&w.Parts[j]))
		}
		if len(w.Parts) == 0 {
			m.Parts = append(m.Parts, openAIParts(m.Role, w.Content, w.ToolCalls, w.ToolCallID)...)
		}
		if m.Role == "" && len(m.Parts) == 0 {
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

var errNotArray = errors.New("not a JSON array")

// openAIParts converts an OpenAI-style message body to parts.
func openAIParts(role string, content json.RawMessage, calls []wireToolCall, toolCallID json.RawMessage) []part {
	var parts []part
	if role == "tool" {
		if len(content) > 0 {
			parts = append(parts, part{Type: partToolCallResponse, ID: strings.TrimSpace(rawString(toolCallID)), Response: contentText(content)})
		}
		return parts
	}
	if t := contentText(content); t != "" {
		parts = append(parts, part{Type: partText, Content: t})
	}
	for _, c := range calls {
		parts = append(parts, toolCallPart(c))
	}
	return parts
}

func toolCallPart(c wireToolCall) part {
	p := part{Type: partToolCall, ID: strings.TrimSpace(rawString(c.ID)), Name: rawString(c.Name), Arguments: rawString(c.Arguments)}
	if c.Function != nil {
		if p.Name == "" {
			p.Name = rawString(c.Function.Name)
		}
		if p.Arguments == "" {
			p.Arguments = rawString(c.Function.Arguments)
		}
	}
	return p
}

// parseInstructions decodes gen_ai.system_instructions: an array of parts,
// or plain text when the value is not JSON.
func parseInstructions(raw string) string {
	t := strings.TrimSpace(raw)
	if t == "" {
		return ""
	}
	if t[0] != '[' && t[0] != '{' && t[0] != '"' {
		return raw
	}
	if t[0] == '[' {
		if s, ok := fastInstructions(t); ok {
			return s
		}
	}
	return decodeInstructions(t)
}

// decodeInstructions is parseInstructions with the struct decoder; t is
// trimmed and starts with '[', '{' or '"'.
func decodeInstructions(t string) string {
	var items []json.RawMessage
	if t[0] == '[' && json.Unmarshal([]byte(t), &items) == nil {
		var b strings.Builder
		for _, it := range items {
			p, ok := decodePart(it)
			if !ok || p.Type != partText || p.Content == "" {
				// messages with roles also appear here in the wild
				var w wireMessage
				if json.Unmarshal(it, &w) == nil && len(w.Parts) > 0 {
					for j := range w.Parts {
						if pp := convertPart(&w.Parts[j]); pp.Type == partText {
							appendLine(&b, pp.Content)
						}
					}
				}
				continue
			}
			appendLine(&b, p.Content)
		}
		return b.String()
	}
	return contentText(json.RawMessage(t))
}

// textMessage returns the one message of role whose only part is text s
// (no parts when s is empty), allocated at once.
func textMessage(role, s string) []message {
	if s == "" {
		return []message{{Role: role}}
	}
	b := &struct {
		m [1]message
		p [1]part
	}{}
	b.p[0] = part{Type: partText, Content: s}
	b.m[0] = message{Role: role, Parts: b.p[:]}
	return b.m[:]
}

func appendLine(b *strings.Builder, s string) {
	if s == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(s)
}

// wireToolDef reads both tool definition shapes:
// {"type":"function","function":{name,description,parameters}} and the flat
// {name,description,parameters}.
type wireToolDef struct {
	Name        json.RawMessage `json:"name"`
	Description json.RawMessage `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Function    *struct {
		Name        json.RawMessage `json:"name"`
		Description json.RawMessage `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// parseToolDefs decodes gen_ai.tool.definitions.
func parseToolDefs(raw string) []ToolDefinition {
	var items []wireToolDef
	if json.Unmarshal([]byte(raw), &items) != nil {
		return nil
	}
	out := make([]ToolDefinition, 0, len(items))
	for _, w := range items {
		d := ToolDefinition{Name: rawString(w.Name), Description: rawString(w.Description), Parameters: rawString(w.Parameters)}
		if w.Function != nil {
			if n := rawString(w.Function.Name); n != "" {
				d.Name = n
			}
			if d.Description == "" {
				d.Description = rawString(w.Function.Description)
			}
			if d.Parameters == "" {
				d.Parameters = rawString(w.Function.Parameters)
			}
		}
		if d.Name == "" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// isJSONObject reports whether s is one valid JSON object. The scanner
// accepts what jsonobj.Valid accepts up to its nesting bound, so only what
// it declines is checked again there.
func isJSONObject(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	if len(t) > 1 && t[0] == '{' && scanValid(t) {
		return true
	}
	return jsonobj.Valid(s)
}
