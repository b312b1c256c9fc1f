package judgemetric

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Unparseable returns the error for a judge answer that does not parse:
// a *judge.Error of class invalid_response, never a score.
func Unparseable(format string, args ...any) error {
	return &judge.Error{Class: judge.ClassInvalidResponse, Err: fmt.Errorf(format, args...)}
}

// ExtractJSON returns the JSON object of a judge answer: the content of
// the first ```json fenced block when there is one, else the whole answer
// with a surrounding ``` fence removed. The result must be exactly one
// JSON object; anything else is an Unparseable error.
func ExtractJSON(answer string) ([]byte, error) {
	s := strings.TrimSpace(answer)
	fenced := false
	if i := strings.Index(s, "```json"); i >= 0 {
		// The object is decoded first and the fence must follow it, so a
		// string value holding ``` does not end the block.
		s, fenced = strings.TrimLeft(s[i+len("```json"):], " \t\r\n"), true
	} else if strings.HasPrefix(s, "```") {
		rest := s[3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		end := strings.LastIndex(rest, "```")
		if end < 0 {
			return nil, Unparseable("unterminated ``` block")
		}
		s = strings.TrimSpace(rest[:end])
	}
	raw, n, err := oneObject(s)
	if err != nil {
		return nil, err
	}
	switch tail := strings.TrimLeft(s[n:], " \t\r\n"); {
	case fenced && strings.HasPrefix(tail, "```"), !fenced && tail == "":
		return raw, nil
	case fenced && tail == "":
		return nil, Unparseable("unterminated ```json block")
	}
	return nil, Unparseable("answer has content after the JSON object")
}

// oneObject decodes the JSON object at the start of s and returns it with
// the number of bytes it took.
func oneObject(s string) (json.RawMessage, int, error) {
	if s == "" || s[0] != '{' {
		return nil, 0, Unparseable("answer is not a JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, 0, Unparseable("answer JSON: %v", err)
	}
	return raw, int(dec.InputOffset()), nil
}

// DecodeJSON extracts the answer's JSON object (see ExtractJSON) and
// decodes it strictly into v: unknown fields are allowed, wrong types
// are not.
func DecodeJSON(answer string, v any) error {
	b, err := ExtractJSON(answer)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return Unparseable("answer JSON: %v", err)
	}
	return nil
}

// JSON renders v as JSON the way prompts show it: without HTML escaping,
// each level indented by indent ("": compact); "" when v does not
// marshal (the values prompts show always do).
func JSON(v any, indent string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}
