package extractor

import (
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"
)

// The fast readers below decode the common, well-formed shapes of message
// JSON (v1.37+ parts form) with gjson, whose values are substrings of the
// input, so a message costs its slices only. Any input they are not sure
// to read exactly as the struct decoder would (invalid JSON, duplicate or
// case-variant keys, escaped keys, unexpected value types, OpenAI-style
// messages, deep nesting) makes them decline, and the caller uses the
// general decoder, so results are identical either way.

// maxFastNesting bounds the nesting a fast reader accepts; the struct
// decoder rejects input nested deeper than 10000 levels.
const maxFastNesting = 10000

// fastReadable reports whether t is valid JSON that cannot nest too deep.
func fastReadable(t string) bool {
	if len(t)/2 >= maxFastNesting && strings.Count(t, "[")+strings.Count(t, "{") >= maxFastNesting {
		return false
	}
	return gjson.Valid(t)
}

// rawStr is rawString for a JSON token given as a string: a string's value
// (a substring when it has no escapes), "" for null, else the token.
func rawStr(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "null" {
		return ""
	}
	if raw[0] == '"' {
		if len(raw) >= 2 && strings.IndexByte(raw, '\\') < 0 {
			return raw[1 : len(raw)-1]
		}
		var s string
		if json.Unmarshal([]byte(raw), &s) == nil {
			return s
		}
	}
	return raw
}

// tokStr is rawStr for a token the scanner read: it has no surrounding
// whitespace, and esc reports whether it is a string holding escapes, so a
// string without them is cut out without looking at its bytes again.
func tokStr(raw string, esc bool) string {
	if raw == "" {
		return ""
	}
	if raw[0] == '"' {
		if !esc {
			return raw[1 : len(raw)-1]
		}
		var s string
		if json.Unmarshal([]byte(raw), &s) == nil {
			return s
		}
		return raw
	}
	if raw == "null" {
		return ""
	}
	return raw
}

// fieldStr is tokStr for field f of v, with esc its escaped-string bits as
// scanner.fields sets them.
func fieldStr(v []string, esc uint, f int) string { return tokStr(v[f], esc&(1<<f) != 0) }

// contentTok is contentStr for a token the scanner read (see tokStr).
func contentTok(raw string, esc bool) string {
	if raw == "" {
		return ""
	}
	switch raw[0] {
	case '"':
		return tokStr(raw, esc)
	case '[', '{':
		return contentText(json.RawMessage(raw))
	case 'n':
		return ""
	}
	return raw
}

// contentStr is contentText for a JSON token given as a string.
func contentStr(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return ""
	}
	switch raw[0] {
	case '"':
		return rawStr(raw)
	case '[', '{':
		return contentText(json.RawMessage(raw))
	case 'n':
		return ""
	}
	return raw
}

// Field positions of partNames and messageNames.
const (
	pType = iota
	pContent
	pText
	pID
	pName
	pArguments
	pResponse
	pResult
)

var partNames = [...]string{"type", "content", "text", "id", "name", "arguments", "response", "result"}

const (
	mRole = iota
	mParts
	mFinishReason
	mContent
	mToolCalls
	mToolCallID
)

var messageNames = [...]string{"role", "parts", "finish_reason", "content", "tool_calls", "tool_call_id"}

// partFrom is convertPart for the raw fields of a part object as the
// scanner read them; bit i of esc marks v[i] as a string with escapes.
func partFrom(v []string, esc uint) part {
	p := part{Type: fieldStr(v, esc, pType), ID: strings.TrimSpace(fieldStr(v, esc, pID)), Name: fieldStr(v, esc, pName)}
	switch p.Type {
	case partToolCall:
		p.Arguments = fieldStr(v, esc, pArguments)
	case partToolCallResponse:
		f := pResponse
		if v[f] == "" {
			f = pResult
		}
		p.Response = fieldStr(v, esc, f)
	case partText, "reasoning", "":
		p.Content = contentTok(v[pContent], esc&(1<<pContent) != 0)
		if p.Content == "" {
			p.Content = fieldStr(v, esc, pText)
		}
		if p.Type == "" {
			p.Type = partText
		}
	}
	return p
}

// fastMessages is parseMessages for arrays of parts-form messages; ok is
// false when t (trimmed, starting with '[') is not one. It reads t in one
// pass, and the result takes two allocations: the messages and their parts.
func fastMessages(t string) (out []message, ok bool) {
	p := scanner{s: t}
	if !p.at('[') {
		return nil, false
	}
	var mv [len(messageNames)]string
	var pv [len(partNames)]string
	var partBuf [16]part
	var msgBuf [8]message
	var endBuf [8]int
	parts, msgs, ends := partBuf[:0], msgBuf[:0], endBuf[:0]
	empty, ok := p.open(']')
	if !ok {
		return nil, false
	}
	for !empty {
		var esc uint
		if parts, esc, ok = p.message(mv[:], &pv, parts); !ok {
			return nil, false
		}
		if mv[mParts] == "" || (mv[mToolCalls] != "" && mv[mToolCalls] != "null") {
			return nil, false
		}
		msgs = append(msgs, message{Role: tokStr(mv[mRole], esc&(1<<mRole) != 0), FinishReason: tokStr(mv[mFinishReason], esc&(1<<mFinishReason) != 0)})
		ends = append(ends, len(parts))
		more, ok := p.next(']')
		if !ok {
			return nil, false
		}
		empty = !more
	}
	if !p.end() {
		return nil, false
	}
	switch {
	case len(msgs) == 0:
		return []message{}, true
	case len(parts) == 1: // one message of one part, the usual output
		b := &struct {
			m [1]message
			p [1]part
		}{}
		b.m[0], b.p[0] = msgs[0], parts[0]
		b.m[0].Parts = b.p[:]
		return b.m[:], true
	}
	out = make([]message, len(msgs))
	all := make([]part, len(parts))
	copy(all, parts)
	from := 0
	for i := range msgs {
		out[i] = msgs[i]
		out[i].Parts = all[from:ends[i]:ends[i]]
		from = ends[i]
	}
	return out, true
}

// fastInstructions is parseInstructions for an array of text parts (as
// objects or strings); ok is false when t (trimmed, starting with '[') is
// not one.
func fastInstructions(t string) (string, bool) {
	p := scanner{s: t}
	if !p.at('[') {
		return "", false
	}
	var pv [len(partNames)]string
	var b strings.Builder
	var only string // the single text, while there is one: no copy needed
	n := 0
	empty, ok := p.open(']')
	if !ok {
		return "", false
	}
	for !empty {
		var s string
		switch {
		case p.at('"'):
			start := p.i
			esc, ok := p.str()
			if !ok {
				return "", false
			}
			s = tokStr(t[start:p.i], esc)
		case p.at('{'):
			esc, ok := p.fields(partNames[:], pv[:])
			if !ok {
				return "", false
			}
			pt := partFrom(pv[:], esc)
			if pt.Type != partText || pt.Content == "" {
				return "", false // possibly a message with parts: the general reader decides
			}
			s = pt.Content
		default:
			return "", false
		}
		if s != "" {
			n++
			switch n {
			case 1:
				only = s
			case 2:
				b.WriteString(only)
				appendLine(&b, s)
			default:
				appendLine(&b, s)
			}
		}
		more, ok := p.next(']')
		if !ok {
			return "", false
		}
		empty = !more
	}
	if !p.end() {
		return "", false
	}
	if n <= 1 {
		return only, true
	}
	return b.String(), true
}
