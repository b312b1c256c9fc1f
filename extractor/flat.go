package extractor

import (
	"slices"
	"strconv"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Flattened message lists: OpenInference writes a span's messages as
// llm.input_messages.<i>.message.<field> and OpenLLMetry's legacy form as
// gen_ai.prompt.<i>.<field>. Indices are 0-based and may be sparse or out
// of order; tool calls nest as <field> = tool_calls.<j>.<call field>.

// flatMsg is one message being reassembled.
type flatMsg struct {
	idx          int
	role         string
	content      string
	callID       string
	finishReason string
	calls        []flatItem // tool calls, by index
	texts        []flatItem // contents.<k> text parts, by index
}

// flatItem is one indexed tool call or content part.
type flatItem struct {
	idx            int
	id, name, args string
	typ, text      string
}

// hasFlat reports whether any attribute key starts with prefix followed by
// a dot.
func hasFlat(as attrs, prefix string) bool {
	for i := range as {
		k := as[i].key
		if len(k) > len(prefix) && k[len(prefix)] == '.' && strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

// flatKey splits a key flattened under prefix, "prefix.N.rest", into N
// and rest.
func flatKey(key, prefix string) (int, string, bool) {
	rest, ok := strings.CutPrefix(key, prefix)
	if !ok || rest == "" || rest[0] != '.' {
		return 0, "", false
	}
	return cutIndex(rest[1:])
}

// cutIndex splits "N.rest" into N and rest.
func cutIndex(s string) (int, string, bool) {
	dot := strings.IndexByte(s, '.')
	if dot <= 0 {
		return 0, "", false
	}
	n, err := strconv.Atoi(s[:dot])
	if err != nil || n < 0 || n > 1<<20 {
		return 0, "", false
	}
	return n, s[dot+1:], true
}

// parseFlatMessages reassembles the messages flattened under prefix.
func parseFlatMessages(as attrs, prefix string) []message {
	var buf [8]flatMsg // most spans carry few messages: no allocation
	msgs := buf[:0]
	for _, a := range as {
		idx, field, ok := flatKey(a.key, prefix)
		if !ok {
			continue
		}
		field = strings.TrimPrefix(field, "message.")
		var m *flatMsg
		for i := range msgs {
			if msgs[i].idx == idx {
				m = &msgs[i]
				break
			}
		}
		if m == nil {
			msgs = append(msgs, flatMsg{idx: idx})
			m = &msgs[len(msgs)-1]
		}
		switch field {
		case "role":
			m.role = a.value
		case "content":
			m.content = a.value
		case "tool_call_id":
			m.callID = strings.TrimSpace(a.value)
		case "finish_reason":
			m.finishReason = a.value
		default:
			if sub, ok := strings.CutPrefix(field, "tool_calls."); ok {
				j, cf, ok := cutIndex(sub)
				if !ok {
					continue
				}
				it := findItem(&m.calls, j)
				cf = strings.TrimPrefix(cf, "tool_call.")
				cf = strings.TrimPrefix(cf, "function.")
				switch cf {
				case "id":
					it.id = strings.TrimSpace(a.value)
				case "name":
					it.name = a.value
				case "arguments":
					it.args = a.value
				}
			} else if sub, ok := strings.CutPrefix(field, "contents."); ok {
				k, cf, ok := cutIndex(sub)
				if !ok {
					continue
				}
				it := findItem(&m.texts, k)
				switch strings.TrimPrefix(cf, "message_content.") {
				case "type":
					it.typ = a.value
				case "text":
					it.text = a.value
				}
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	slices.SortFunc(msgs, func(a, b flatMsg) int { return a.idx - b.idx })
	n := 0
	for i := range msgs {
		n += msgs[i].parts()
	}
	// one backing array for every message's parts
	parts := make([]part, 0, n)
	out := make([]message, 0, len(msgs))
	for i := range msgs {
		start := len(parts)
		var m message
		m, parts = msgs[i].message(parts)
		m.Parts = parts[start:len(parts):len(parts)]
		if len(m.Parts) == 0 {
			m.Parts = nil
		}
		out = append(out, m)
	}
	return out
}

func findItem(items *[]flatItem, idx int) *flatItem {
	for i := range *items {
		if (*items)[i].idx == idx {
			return &(*items)[i]
		}
	}
	*items = append(*items, flatItem{idx: idx})
	return &(*items)[len(*items)-1]
}

// parts returns the number of parts message appends.
func (m *flatMsg) parts() int {
	if m.role == "tool" {
		return 1
	}
	n := len(m.calls)
	if m.content != "" {
		return n + 1
	}
	for _, t := range m.texts {
		if (t.typ == "" || t.typ == partText) && t.text != "" {
			n++
		}
	}
	return n
}

// message converts a reassembled message to the common form, appending
// its parts to parts.
func (m *flatMsg) message(parts []part) (message, []part) {
	out := message{Role: m.role, FinishReason: m.finishReason}
	if m.role == "tool" {
		return out, append(parts, part{Type: partToolCallResponse, ID: m.callID, Response: m.content})
	}
	if m.content != "" {
		parts = append(parts, part{Type: partText, Content: m.content})
	} else {
		slices.SortFunc(m.texts, func(a, b flatItem) int { return a.idx - b.idx })
		for _, t := range m.texts {
			if (t.typ == "" || t.typ == partText) && t.text != "" {
				parts = append(parts, part{Type: partText, Content: t.text})
			}
		}
	}
	slices.SortFunc(m.calls, func(a, b flatItem) int { return a.idx - b.idx })
	for _, c := range m.calls {
		parts = append(parts, part{Type: partToolCall, ID: c.id, Name: c.name, Arguments: c.args})
	}
	return out, parts
}

// parseFlatToolDefs reads tool definitions flattened under prefix:
// OpenInference llm.tools.<i>.tool.json_schema (a JSON object string) and
// OpenLLMetry llm.request.functions.<i>.{name,description,parameters}.
func parseFlatToolDefs(as attrs, prefix string) []agentrun.ToolDefinition {
	type item struct {
		idx int
		def agentrun.ToolDefinition
	}
	var items []item
	for _, a := range as {
		idx, field, ok := flatKey(a.key, prefix)
		if !ok {
			continue
		}
		k := slices.IndexFunc(items, func(it item) bool { return it.idx == idx })
		if k < 0 {
			items = append(items, item{idx: idx})
			k = len(items) - 1
		}
		d := &items[k].def
		switch strings.TrimPrefix(field, "tool.") {
		case "json_schema":
			if defs := parseToolDefs("[" + a.value + "]"); len(defs) == 1 {
				*d = defs[0]
			}
		case "name":
			d.Name = a.value
		case "description":
			d.Description = a.value
		case "parameters":
			d.Parameters = a.value
		}
	}
	slices.SortFunc(items, func(a, b item) int { return a.idx - b.idx })
	out := make([]agentrun.ToolDefinition, 0, len(items))
	for _, it := range items {
		if it.def.Name != "" {
			out = append(out, it.def)
		}
	}
	return out
}

// decodeFlat decodes content flattened in span attributes; c.raw is the
// key prefix.
func (c *content) decodeFlat() {
	switch c.kind {
	case contentToolDefs:
		c.defs = parseFlatToolDefs(c.attrs, c.raw)
	case contentInstructions:
		c.instructions = systemText(parseFlatMessages(c.attrs, c.raw))
	default:
		c.msgs = parseFlatMessages(c.attrs, c.raw)
	}
}
