package extractor

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/agentrun"
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
	var buf [4]string
	texts := buf[:0]
	for _, p := range m.Parts {
		if p.Type == partText && p.Content != "" {
			texts = append(texts, p.Content)
		}
	}
	return strings.Join(texts, "\n")
}

// rawJSON is the text of one JSON value, as json.RawMessage holds it, kept
// as a string: the values the scanner reads are substrings of the
// attribute, not copies.
type rawJSON string

// UnmarshalJSON keeps the value's text.
func (r *rawJSON) UnmarshalJSON(b []byte) error {
	*r = rawJSON(b)
	return nil
}

// wirePart and wireBody read the JSON of gen_ai.input.messages,
// gen_ai.output.messages and gen_ai.system_instructions: a message is a
// wireBody and its parts. Every field is raw so that a value of an
// unexpected type degrades that field only.
type wirePart struct {
	Type      rawJSON `json:"type"`
	Content   rawJSON `json:"content"`
	Text      rawJSON `json:"text"`
	ID        rawJSON `json:"id"`
	Name      rawJSON `json:"name"`
	Arguments rawJSON `json:"arguments"`
	Response  rawJSON `json:"response"`
	Result    rawJSON `json:"result"`
}

// wireToolCall is an OpenAI-style tool call: name and arguments at the top
// or under function.
type wireToolCall struct {
	ID        rawJSON       `json:"id"`
	Function  *wireFunction `json:"function"`
	Name      rawJSON       `json:"name"`
	Arguments rawJSON       `json:"arguments"`
}

// wireFunction is the function of a wireToolCall.
type wireFunction struct {
	Name      rawJSON `json:"name"`
	Arguments rawJSON `json:"arguments"`
}

// wireBody is a message object but its parts (keys role, finish_reason,
// content, tool_calls, tool_call_id). OpenAI-style messages (older
// emitters) have content and tool_calls instead of parts.
type wireBody struct {
	Role         rawJSON
	FinishReason rawJSON
	Content      rawJSON
	ToolCalls    []wireToolCall
	ToolCallID   rawJSON
}

// rawString returns a JSON string's value, or the raw JSON text of any
// other value ("" for null or absent). raw must be valid JSON, as the
// values the scanner and json.Unmarshal hand out are. A string is decoded
// as encoding/json decodes it: one without escapes and with valid UTF-8 is
// its own bytes.
func rawString(raw rawJSON) string {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return ""
	}
	if t[0] == '"' {
		if len(t) >= 2 && strings.IndexByte(t, '\\') < 0 && utf8.ValidString(t) {
			return t[1 : len(t)-1]
		}
		var s string
		if json.Unmarshal([]byte(t), &s) == nil {
			return s
		}
	}
	return t
}

// contentText reads message content given as a string, an array of parts
// ({"type":"text","content"|"text":...} or plain strings) or an object with
// a text field.
func contentText(raw rawJSON) string {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return ""
	}
	switch t[0] {
	case '"':
		return rawString(rawJSON(t))
	case '[':
		var items []rawJSON
		if json.Unmarshal([]byte(t), &items) != nil {
			return t
		}
		var b strings.Builder
		for _, it := range items {
			appendLine(&b, contentText(it))
		}
		return b.String()
	case '{':
		var p wirePart
		if json.Unmarshal([]byte(t), &p) != nil {
			return t
		}
		if typ := rawString(p.Type); typ != "" && typ != partText {
			return ""
		}
		if s := rawString(p.Content); s != "" {
			return s
		}
		return rawString(p.Text)
	case 'n':
		return ""
	}
	return t
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

// appendParts appends the parts of a message to out: its wire parts when
// it has some, else those of its OpenAI-style body.
func appendParts(out []part, role string, b *wireBody, parts []wirePart) []part {
	for i := range parts {
		out = append(out, convertPart(&parts[i]))
	}
	if len(parts) > 0 {
		return out
	}
	if role == "tool" {
		if len(b.Content) > 0 {
			out = append(out, part{Type: partToolCallResponse, ID: strings.TrimSpace(rawString(b.ToolCallID)), Response: contentText(b.Content)})
		}
		return out
	}
	if t := contentText(b.Content); t != "" {
		out = append(out, part{Type: partText, Content: t})
	}
	for i := range b.ToolCalls {
		out = append(out, toolCallPart(&b.ToolCalls[i]))
	}
	return out
}

func toolCallPart(c *wireToolCall) part {
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
	Name        rawJSON `json:"name"`
	Description rawJSON `json:"description"`
	Parameters  rawJSON `json:"parameters"`
	Function    *struct {
		Name        rawJSON `json:"name"`
		Description rawJSON `json:"description"`
		Parameters  rawJSON `json:"parameters"`
	} `json:"function"`
}

// parseToolDefs decodes gen_ai.tool.definitions.
func parseToolDefs(raw string) []agentrun.ToolDefinition {
	var items []wireToolDef
	if json.Unmarshal([]byte(raw), &items) != nil {
		return nil
	}
	out := make([]agentrun.ToolDefinition, 0, len(items))
	for _, w := range items {
		d := agentrun.ToolDefinition{Name: rawString(w.Name), Description: rawString(w.Description), Parameters: rawString(w.Parameters)}
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
