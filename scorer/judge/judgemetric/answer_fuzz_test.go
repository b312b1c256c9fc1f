package judgemetric_test

import (
	"encoding/json"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// FuzzExtractJSON: ExtractJSON never panics, fails only with
// invalid_response, and what it returns is one JSON object that
// encoding/json accepts on its own.
func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{
		`{"score": 4}`, "```json\n{\"a\": 1}\n```", "```\n{\"a\": 1}\n```", "```json{\"a\":1}```",
		`{"a": 1} tail`, `{"a": 1}{"b": 2}`, "```json\n{\"a\": 1}", "```", "```json", `[1]`, `{`, ``,
		"{\"code\": \"```\"}", "```\n```json\n{}\n```\n```", `{"a": "\ud800"}`, "{\"a\": 1}\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		b, err := judgemetric.ExtractJSON(answer)
		if err != nil {
			if c := judge.ClassOf(err); c != judge.ClassInvalidResponse {
				t.Fatalf("error class %q: %v", c, err)
			}
			if b != nil {
				t.Fatalf("bytes %q with an error", b)
			}
			return
		}
		if !json.Valid(b) {
			t.Fatalf("%q is not valid JSON", b)
		}
		var obj map[string]any
		if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
			t.Fatalf("%q is not one JSON object: %v", b, err)
		}
		var v map[string]any
		if err := judgemetric.DecodeJSON(answer, &v); err != nil {
			t.Fatalf("ExtractJSON accepted %q but DecodeJSON failed: %v", answer, err)
		}
	})
}
