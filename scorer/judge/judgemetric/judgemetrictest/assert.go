package judgemetrictest

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// AssertSanitized checks that run content reached the judge only through
// the sanitizer: no raw token in a System prompt, every raw token of a
// Prompt inside a field of env, opening and closing markers naming the
// same field, the envelope's system note in every System prompt, and a
// metric id on every request.
func AssertSanitized(t testing.TB, env Envelope, reqs []*judge.Request, rawTokens []string) {
	t.Helper()
	note := env.SystemNote()
	for i, r := range reqs {
		outside, fields := env.Split(r.Prompt)
		for _, tok := range rawTokens {
			if strings.Contains(r.System, tok) {
				t.Errorf("request %d: %s in System", i, tok)
			}
			if strings.Contains(outside, tok) {
				t.Errorf("request %d: %s outside the sanitizer markers:\n%s", i, tok, outside)
			}
		}
		for _, f := range fields {
			if f.CloseField != "" && f.Field != f.CloseField {
				t.Errorf("request %d: mismatched markers %q/%q", i, f.Field, f.CloseField)
			}
		}
		if note != "" && !strings.Contains(r.System, note) {
			t.Errorf("request %d: the sanitizer's system note is missing", i)
		}
		if r.Metric == "" {
			t.Errorf("request %d: no metric id", i)
		}
	}
}

// AssertFields checks that every raw token found inside a field of env
// travels in the field fields maps it to, and returns how many tokens
// it found inside fields.
func AssertFields(t testing.TB, env Envelope, reqs []*judge.Request, fields map[string]string) int {
	t.Helper()
	seen := 0
	for i, r := range reqs {
		_, wrapped := env.Split(r.Prompt)
		for _, w := range wrapped {
			for tok, want := range fields {
				if n := strings.Count(w.Text, tok); n > 0 {
					seen += n
					if w.Field != want {
						t.Errorf("request %d: %s sent as field %q, want %q", i, tok, w.Field, want)
					}
				}
			}
		}
	}
	return seen
}

// WantClass fails the test unless err is an error of class as
// judge.ClassOf sees it (an unclassified error counts as
// invalid_response).
func WantClass(t testing.TB, err error, class judge.Class) {
	t.Helper()
	if err == nil {
		t.Fatalf("want a %s error, got none", class)
	}
	if c := judge.ClassOf(err); c != class {
		t.Fatalf("class = %q (%v), want %s", c, err, class)
	}
}

// WantInvalid fails the test unless err is an invalid_response error:
// the outcome of every judge answer that does not parse.
func WantInvalid(t testing.TB, err error) {
	t.Helper()
	WantClass(t, err, judge.ClassInvalidResponse)
}
