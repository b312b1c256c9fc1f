package judgemetric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	if i := strings.Index(s, "```json"); i >= 0 {
		rest := s[i+len("```json"):]
		end := strings.Index(rest, "```")
		if end < 0 {
			return nil, Unparseable("unterminated ```json block")
		}
		s = strings.TrimSpace(rest[:end])
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
	b := []byte(s)
	if len(b) == 0 || b[0] != '{' {
		return nil, Unparseable("answer is not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, Unparseable("answer JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, Unparseable("answer has content after the JSON object")
	}
	return raw, nil
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
