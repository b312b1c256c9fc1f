package extractor

import (
	"errors"
	"strings"
)

// The readers of gen_ai.input.messages, gen_ai.output.messages and
// gen_ai.system_instructions, on every model call span: the scanner decodes
// the message objects into the wire types as json.Unmarshal would, in one
// pass over the attribute.

var (
	errNotArray = errors.New("not a JSON array")
	// errSyntax is json.Unmarshal's failure on text that is not JSON.
	errSyntax = errors.New("invalid JSON")
)

// parseMessages decodes a JSON array of chat messages: the v1.37 parts
// form, with OpenAI-style content/tool_calls messages accepted too.
// Elements that hold no message are skipped. An input that is not a valid
// JSON array is an error.
func parseMessages(raw string) ([]message, error) {
	t := strings.TrimSpace(raw)
	if t == "" || t[0] != '[' {
		return nil, errNotArray
	}
	p := scanner{s: t}
	var arenaBuf [16]wirePart
	var partBuf [16]part
	var msgBuf [8]message
	var endBuf [8]int
	arena, parts, msgs, ends := arenaBuf[:0], partBuf[:0], msgBuf[:0], endBuf[:0]
	more, ok := p.elements()
	for ; more; more, ok = p.next(']') {
		var b wireBody
		var wparts []wirePart
		if arena, wparts, ok = p.message(&b, arena); !ok {
			return nil, errSyntax
		}
		role, from := rawString(b.Role), len(parts)
		if parts = appendParts(parts, role, &b, wparts); role == "" && len(parts) == from {
			continue
		}
		msgs = append(msgs, message{Role: role, FinishReason: rawString(b.FinishReason)})
		ends = append(ends, len(parts))
	}
	if !ok || !p.end() {
		return nil, errSyntax
	}
	return messageList(msgs, ends, parts), nil
}

// messageList returns msgs with their parts (parts[ends[i-1]:ends[i]] for
// message i) in two allocations, one for a single message of one part.
func messageList(msgs []message, ends []int, parts []part) []message {
	if len(msgs) == 1 && len(parts) == 1 {
		b := &struct {
			m [1]message
			p [1]part
		}{}
		b.m[0], b.p[0] = msgs[0], parts[0]
		b.m[0].Parts = b.p[:]
		return b.m[:]
	}
	out := make([]message, len(msgs))
	var all []part
	if len(parts) > 0 {
		all = make([]part, len(parts))
		copy(all, parts)
	}
	from := 0
	for i := range msgs {
		out[i] = msgs[i]
		if ends[i] > from {
			out[i].Parts = all[from:ends[i]:ends[i]]
		}
		from = ends[i]
	}
	return out
}

// parseInstructions decodes gen_ai.system_instructions: an array of parts
// (objects or strings; messages with parts also appear in the wild), read
// as json.Unmarshal reads it into raw values and those as parts, else as
// messages; content in another form; plain text when the value is not
// JSON.
func parseInstructions(raw string) string {
	t := strings.TrimSpace(raw)
	if t == "" {
		return ""
	}
	switch t[0] {
	case '[':
	case '{', '"':
		return contentText(rawJSON(t))
	default:
		return raw
	}
	p := scanner{s: t}
	var buf [4]string
	texts := buf[:0]
	add := func(s string) {
		if s != "" {
			texts = append(texts, s)
		}
	}
	more, ok := p.elements()
	for ; more; more, ok = p.next(']') {
		start := p.i
		switch {
		case p.at('"'):
			var r rawJSON
			ok = p.raw(&r)
			add(rawString(r))
		case p.at('{'):
			var w wirePart
			if ok = p.part(&w); !ok {
				break
			}
			if pt := convertPart(&w); pt.Type == partText && pt.Content != "" {
				add(pt.Content)
				break
			}
			for _, s := range messageTexts(t[start:p.i]) {
				add(s)
			}
		default:
			ok = p.value()
		}
		if !ok {
			return t
		}
	}
	if !ok || !p.end() {
		return t // not JSON
	}
	return strings.Join(texts, "\n")
}

// messageTexts returns the text parts of the message object t, when it
// decodes as a message without a value of a mismatched type.
func messageTexts(t string) []string {
	p := scanner{s: t}
	var b wireBody
	_, wparts, ok := p.message(&b, nil)
	if !ok || p.mismatch {
		return nil
	}
	var out []string
	for i := range wparts {
		if pt := convertPart(&wparts[i]); pt.Type == partText {
			out = append(out, pt.Content)
		}
	}
	return out
}

// Keys of a message object, in the order of messageFields.
const (
	mRole = iota
	mParts
	mFinishReason
	mContent
	mToolCalls
	mToolCallID
)

var (
	messageFields  = [...]string{"role", "parts", "finish_reason", "content", "tool_calls", "tool_call_id"}
	partFields     = [...]string{"type", "content", "text", "id", "name", "arguments", "response", "result"}
	toolCallFields = [...]string{"id", "function", "name", "arguments"}
	functionFields = [...]string{"name", "arguments"}
)

// message decodes the value at p.i as json.Unmarshal decodes a message
// object: all but its parts into *b, its parts into arena. It returns
// arena grown by them and the message's parts (nil when null or absent).
// The elements of arena from its length on are the parts this message
// decoded so far, so that a repeated parts key decodes into them as
// json.Unmarshal decodes into the slice the field already holds.
func (p *scanner) message(b *wireBody, arena []wirePart) (_, parts []wirePart, ok bool) {
	if !p.at('{') {
		return arena, nil, p.skipMismatch()
	}
	start := len(arena)
	ok = p.fields(messageFields[:], func(f int) bool {
		switch f {
		case mRole:
			return p.raw(&b.Role)
		case mFinishReason:
			return p.raw(&b.FinishReason)
		case mContent:
			return p.raw(&b.Content)
		case mToolCallID:
			return p.raw(&b.ToolCallID)
		case mToolCalls:
			return p.toolCalls(&b.ToolCalls)
		}
		switch {
		case p.at('n'):
			arena, parts = arena[:start], nil
			return p.value()
		case !p.at('['):
			return p.skipMismatch()
		}
		n := 0
		more, ok := p.elements()
		for ; more; more, ok = p.next(']') {
			if start+n == len(arena) {
				arena = append(arena, wirePart{})
			}
			if !p.part(&arena[start+n]) {
				return false
			}
			n++
		}
		if n == 0 {
			arena, parts = arena[:start], []wirePart{}
		} else {
			parts = arena[start : start+n : start+n]
		}
		return ok
	})
	return arena, parts, ok
}

// part decodes the value at p.i into w as json.Unmarshal decodes it into
// a wirePart.
func (p *scanner) part(w *wirePart) bool {
	if !p.at('{') {
		return p.skipMismatch()
	}
	return p.fields(partFields[:], func(f int) bool {
		// in the order of partFields
		return p.raw([...]*rawJSON{&w.Type, &w.Content, &w.Text, &w.ID, &w.Name, &w.Arguments, &w.Response, &w.Result}[f])
	})
}

// toolCalls decodes the value at p.i into *s as json.Unmarshal decodes it
// into a []wireToolCall: element i into what the slice held at i, up to
// its capacity.
func (p *scanner) toolCalls(s *[]wireToolCall) bool {
	switch {
	case p.at('n'):
		*s = nil
		return p.value()
	case !p.at('['):
		return p.skipMismatch()
	}
	v, n := *s, 0
	more, ok := p.elements()
	for ; more; more, ok = p.next(']') {
		if n < cap(v) {
			v = v[:n+1]
		} else {
			v = append(v, wireToolCall{})
		}
		if !p.toolCall(&v[n]) {
			return false
		}
		n++
	}
	if n == 0 {
		v = []wireToolCall{}
	}
	*s = v[:n]
	return ok
}

// toolCall decodes the value at p.i into c as json.Unmarshal decodes it
// into a wireToolCall.
func (p *scanner) toolCall(c *wireToolCall) bool {
	if !p.at('{') {
		return p.skipMismatch()
	}
	return p.fields(toolCallFields[:], func(f int) bool {
		switch f {
		case 0:
			return p.raw(&c.ID)
		case 1:
			return p.function(&c.Function)
		case 2:
			return p.raw(&c.Name)
		}
		return p.raw(&c.Arguments)
	})
}

// function decodes the value at p.i into *f as json.Unmarshal decodes it
// into a *wireFunction: into the function *f points to, if any.
func (p *scanner) function(f **wireFunction) bool {
	switch {
	case p.at('n'):
		*f = nil
		return p.value()
	case !p.at('{'):
		return p.skipMismatch()
	}
	if *f == nil {
		*f = new(wireFunction)
	}
	fn := *f
	return p.fields(functionFields[:], func(i int) bool {
		if i == 0 {
			return p.raw(&fn.Name)
		}
		return p.raw(&fn.Arguments)
	})
}
