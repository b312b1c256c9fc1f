package judgemetric_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// wantUnparseable fails unless err is a *judge.Error of class
// invalid_response whose message contains sub.
func wantUnparseable(t *testing.T, err error, sub string) {
	t.Helper()
	var je *judge.Error
	if !errors.As(err, &je) || je.Class != judge.ClassInvalidResponse {
		t.Fatalf("error %v (%T): want a *judge.Error of class invalid_response", err, err)
	}
	if !strings.Contains(err.Error(), sub) {
		t.Errorf("error %q does not say %q", err, sub)
	}
}

func TestUnparseable(t *testing.T) {
	err := judgemetric.Unparseable("bad %s at %d", "verdict", 3)
	wantUnparseable(t, err, "bad verdict at 3")
}

func TestExtractJSON(t *testing.T) {
	tests := []struct {
		name, answer string
		want         string // the object; "" = an error
		err          string // part of the error message
	}{
		{name: "bare object", answer: `{"score": 4}`, want: `{"score": 4}`},
		{name: "surrounding space", answer: " \n\t{\"score\": 4}\n\n", want: `{"score": 4}`},
		{name: "nested object", answer: `{"a": {"b": [1, {"c": null}]}, "d": "}"}`, want: `{"a": {"b": [1, {"c": null}]}, "d": "}"}`},
		{name: "json fence", answer: "```json\n{\"score\": 4}\n```", want: `{"score": 4}`},
		{name: "json fence in prose", answer: "Here you go:\n```json\n  {\"score\": 4}\n```\nHope this helps {not json}.", want: `{"score": 4}`},
		{name: "first json fence wins", answer: "```json\n{\"a\": 1}\n```\n```json\n{\"a\": 2}\n```", want: `{"a": 1}`},
		{name: "json fence on one line", answer: "```json{\"a\": 1}```", want: `{"a": 1}`},
		{name: "plain fence", answer: "```\n{\"score\": 4}\n```", want: `{"score": 4}`},
		{name: "fence with other language tag", answer: "```JSON\n{\"score\": 4}\n```", want: `{"score": 4}`},
		{name: "plain fence on one line", answer: "```{\"a\": 1}```", want: `{"a": 1}`},
		{name: "plain fence keeps inner fences", answer: "```\n{\"code\": \"```py\\nx\\n```\"}\n```", want: "{\"code\": \"```py\\nx\\n```\"}"},
		{name: "fence after the object", answer: "{\"a\": 1}\n```", err: "content after the JSON object"},
		{name: "trailing prose", answer: `{"score": 4} I hope that helps.`, err: "content after the JSON object"},
		{name: "two objects", answer: `{"a": 1}{"a": 2}`, err: "content after the JSON object"},
		{name: "trailing object in json fence", answer: "```json\n{\"a\": 1}\n{\"a\": 2}\n```", err: "content after the JSON object"},
		{name: "inner fence inside a json fence string", answer: "```json\n{\"code\": \"```py\\nx\\n```\"}\n```", want: "{\"code\": \"```py\\nx\\n```\"}"},
		{name: "json fence inside a json fence", answer: "```json\n```json\n{\"a\": 1}\n```\n```", err: "not a JSON object"},
		{name: "unterminated json fence", answer: "```json\n{\"a\": 1}", err: "unterminated ```json block"},
		{name: "unterminated plain fence", answer: "```\n{\"a\": 1}", err: "unterminated ``` block"},
		{name: "array", answer: `[{"a": 1}]`, err: "not a JSON object"},
		{name: "string", answer: `"{\"a\": 1}"`, err: "not a JSON object"},
		{name: "number", answer: `4`, err: "not a JSON object"},
		{name: "null", answer: `null`, err: "not a JSON object"},
		{name: "empty", answer: ``, err: "not a JSON object"},
		{name: "empty json fence", answer: "```json\n```", err: "not a JSON object"},
		{name: "prose before the object", answer: `Sure! {"score": 4}`, err: "not a JSON object"},
		{name: "truncated object", answer: `{"score": 4`, err: "answer JSON"},
		{name: "trailing comma", answer: `{"score": 4,}`, err: "answer JSON"},
		{name: "single quotes", answer: `{'score': 4}`, err: "answer JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := judgemetric.ExtractJSON(tt.answer)
			if tt.want == "" {
				if err == nil {
					t.Fatalf("got %q, want an error", got)
				}
				wantUnparseable(t, err, tt.err)
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestDecodeJSON(t *testing.T) {
	type verdict struct {
		Score  float64 `json:"score"`
		Reason string  `json:"reason"`
	}
	var v verdict
	if err := judgemetric.DecodeJSON("```json\n{\"score\": 0.5, \"reason\": \"ok\", \"extra\": [1]}\n```", &v); err != nil {
		t.Fatal(err)
	}
	if v != (verdict{0.5, "ok"}) {
		t.Errorf("decoded %+v", v)
	}
	for name, tt := range map[string]struct{ answer, err string }{
		"wrong type":     {`{"score": "high"}`, "answer JSON"},
		"not an object":  {`[1]`, "not a JSON object"},
		"trailing":       {`{"score": 1} x`, "content after"},
		"unterminated":   {"```json\n{\"score\": 1}", "unterminated"},
		"wrong nesting":  {`{"score": {"value": 1}}`, "answer JSON"},
		"reason not str": {`{"score": 1, "reason": 2}`, "answer JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			var v verdict
			wantUnparseable(t, judgemetric.DecodeJSON(tt.answer, &v), tt.err)
		})
	}
}
