package judgemetrictest

import (
	"errors"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

func TestAssertSanitized(t *testing.T) {
	env := BracketEnvelope()
	note := env.SystemNote()
	good := &judge.Request{Metric: "m", System: "Grade it.\n\n" + note, Prompt: "Answer: " + env.Wrap("response", "RAWRESPONSE")}
	tests := []struct {
		name string
		req  *judge.Request
		want string // "" = passes
	}{
		{"clean", good, ""},
		{"token outside", &judge.Request{Metric: "m", System: note, Prompt: "RAWRESPONSE " + env.Wrap("response", "x")}, "RAWRESPONSE outside"},
		{"token in system", &judge.Request{Metric: "m", System: note + " RAWPROMPT", Prompt: ""}, "RAWPROMPT in System"},
		{"mismatched", &judge.Request{Metric: "m", System: note, Prompt: "⟦response:KEY⟧RAWRESPONSE⟦/prompt⟧"}, "mismatched markers"},
		{"unterminated", &judge.Request{Metric: "m", System: note, Prompt: "⟦response:KEY⟧RAWRESPONSE"}, "outside"},
		{"no note", &judge.Request{Metric: "m", System: "Grade it.", Prompt: good.Prompt}, "system note"},
		{"no metric", &judge.Request{System: note, Prompt: good.Prompt}, "no metric id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := record(t, func(tb testing.TB) {
				AssertSanitized(tb, env, []*judge.Request{good, tt.req}, []string{"RAWPROMPT", "RAWRESPONSE"})
			})
			if tt.want == "" && len(r.msgs) != 0 {
				t.Errorf("want no failure, got %q", r.msgs)
			}
			if tt.want != "" && !r.has(tt.want) {
				t.Errorf("want a failure with %q, got %q", tt.want, r.msgs)
			}
			if tt.want != "" && !r.has("request 1:") {
				t.Errorf("failure does not name request 1: %q", r.msgs)
			}
		})
	}
}

func TestAssertFields(t *testing.T) {
	env := AngleEnvelope()
	reqs := []*judge.Request{{Prompt: env.Wrap("prompt", "RAW_P and RAW_P") + env.Wrap("response", "RAW_R") + " RAW_X"}}
	var seen int
	r := record(t, func(tb testing.TB) {
		seen = AssertFields(tb, env, reqs, map[string]string{"RAW_P": "prompt", "RAW_R": "response", "RAW_X": "context"})
	})
	if len(r.msgs) != 0 || seen != 3 {
		t.Errorf("seen %d, failures %q; want 3 and none (a token outside is not AssertFields' business)", seen, r.msgs)
	}
	r = record(t, func(tb testing.TB) {
		AssertFields(tb, env, reqs, map[string]string{"RAW_R": "context"})
	})
	if !r.has(`RAW_R sent as field "response", want "context"`) {
		t.Errorf("failures %q", r.msgs)
	}
}

func TestWantClass(t *testing.T) {
	invalid := &judge.Error{Class: judge.ClassInvalidResponse, Err: errors.New("bad")}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"match", invalid, ""},
		{"wrapped match", errors.Join(errors.New("ctx"), invalid), ""},
		{"nil", nil, "got none"},
		{"other class", &judge.Error{Class: judge.ClassRefusal, Err: errors.New("no")}, `class = "refusal"`},
		// judge.ClassOf counts any unclassified error as invalid_response.
		{"plain error", errors.New("plain"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := record(t, func(tb testing.TB) { WantClass(tb, tt.err, judge.ClassInvalidResponse) })
			if tt.want == "" && (r.fatal || len(r.msgs) > 0) {
				t.Errorf("want a pass, got %q", r.msgs)
			}
			if tt.want != "" && (!r.fatal || !r.has(tt.want)) {
				t.Errorf("want a fatal failure with %q, got %q (fatal %v)", tt.want, r.msgs, r.fatal)
			}
		})
	}
}

func TestWantInvalid(t *testing.T) {
	if r := record(t, func(tb testing.TB) { WantInvalid(tb, &judge.Error{Class: judge.ClassInvalidResponse}) }); len(r.msgs) != 0 {
		t.Errorf("invalid_response: %q", r.msgs)
	}
	if r := record(t, func(tb testing.TB) { WantInvalid(tb, &judge.Error{Class: judge.ClassTruncated}) }); !r.fatal {
		t.Error("truncated: want a failure")
	}
}
