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

// fields collects the raw tokens of an object's known keys. ok is false
// when a key is escaped, repeated, or matches a known key only when case
// is ignored (the struct decoder folds case and keeps the last value).
type fields struct {
	names []string
	vals  []string
	ok    bool
}

// read fills f.vals (one per name, "" when absent) from object o.
func (f *fields) read(o gjson.Result) {
	f.ok = true
	for i := range f.vals {
		f.vals[i] = ""
	}
	o.ForEach(func(k, v gjson.Result) bool {
		if strings.IndexByte(k.Raw, '\\') >= 0 {
			f.ok = false
			return false
		}
		for i, n := range f.names {
			if k.Str == n {
				if f.vals[i] != "" {
					f.ok = false
					return false
				}
				f.vals[i] = v.Raw
				return true
			}
			if strings.EqualFold(k.Str, n) {
				f.ok = false
				return false
			}
		}
		return true
	})
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

// partFrom is convertPart for the raw fields of a part object.
func partFrom(v []string) part {
	p := part{Type: rawStr(v[pType]), ID: strings.TrimSpace(rawStr(v[pID])), Name: rawStr(v[pName])}
	switch p.Type {
	case partToolCall:
		p.Arguments = rawStr(v[pArguments])
	case partToolCallResponse:
		resp := v[pResponse]
		if resp == "" {
			resp = v[pResult]
		}
		p.Response = rawStr(resp)
	case partText, "reasoning", "":
		p.Content = contentStr(v[pContent])
		if p.Content == "" {
			p.Content = rawStr(v[pText])
		}
		if p.Type == "" {
			p.Type = partText
		}
	}
	return p
}

// fastMessages is parseMessages for arrays of parts-form messages; ok is
// false when t is not one.
func fastMessages(t string) (out []message, ok bool) {
	if !fastReadable(t) {
		return nil, false
	}
	mf := fields{names: messageNames[:], vals: make([]string, len(messageNames))}
	pf := fields{names: partNames[:], vals: make([]string, len(partNames))}
	ok = true
	gjson.Parse(t).ForEach(func(_, mv gjson.Result) bool {
		if !mv.IsObject() {
			ok = false
			return false
		}
		mf.read(mv)
		v := mf.vals
		if !mf.ok || !strings.HasPrefix(v[mParts], "[") || (v[mToolCalls] != "" && v[mToolCalls] != "null") {
			ok = false
			return false
		}
		m := message{Role: rawStr(v[mRole]), FinishReason: rawStr(v[mFinishReason])}
		gjson.Parse(v[mParts]).ForEach(func(_, pv gjson.Result) bool {
			if !pv.IsObject() {
				ok = false
				return false
			}
			pf.read(pv)
			if !pf.ok {
				ok = false
				return false
			}
			m.Parts = append(m.Parts, partFrom(pf.vals))
			return true
		})
		if !ok || len(m.Parts) == 0 {
			ok = false // an empty parts list is read as an OpenAI-style message
			return false
		}
		out = append(out, m)
		return true
	})
	if !ok {
		return nil, false
	}
	if out == nil {
		out = []message{}
	}
	return out, true
}

// fastInstructions is parseInstructions for an array of text parts (as
// objects or strings); ok is false when t is not one.
func fastInstructions(t string) (string, bool) {
	if !fastReadable(t) {
		return "", false
	}
	pf := fields{names: partNames[:], vals: make([]string, len(partNames))}
	var b strings.Builder
	var only string // the single text, while there is one: no copy needed
	n := 0
	ok := true
	gjson.Parse(t).ForEach(func(_, it gjson.Result) bool {
		var s string
		switch {
		case it.Type == gjson.String:
			s = rawStr(it.Raw)
		case it.IsObject():
			pf.read(it)
			if !pf.ok {
				ok = false
				return false
			}
			p := partFrom(pf.vals)
			if p.Type != partText || p.Content == "" {
				ok = false // possibly a message with parts: the general reader decides
				return false
			}
			s = p.Content
		default:
			ok = false
			return false
		}
		if s == "" {
			return true
		}
		n++
		if n == 1 {
			only = s
			return true
		}
		if n == 2 {
			b.WriteString(only)
		}
		appendLine(&b, s)
		return true
	})
	if !ok {
		return "", false
	}
	if n <= 1 {
		return only, true
	}
	return b.String(), true
}
