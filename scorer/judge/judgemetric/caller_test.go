package judgemetric_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// stubSanitizer is a sanitizer with scripted flags; its system note names
// the sanitizer so a request shows which one built it.
type stubSanitizer struct {
	id          int
	note        bool
	preFlags    []string
	answerFlags []string
}

func (s *stubSanitizer) Untrusted(field, text string) string {
	return fmt.Sprintf("[%s#%d]%s[/%s#%d]", field, s.id, text, field, s.id)
}

func (s *stubSanitizer) UntrustedPieces(field string, pieces []judge.Piece) string {
	return s.Untrusted(field, judge.JoinPieces(pieces))
}

func (s *stubSanitizer) SystemNote() string {
	if !s.note {
		return ""
	}
	return fmt.Sprintf("Note of sanitizer %d.", s.id)
}
func (s *stubSanitizer) CheckAnswer(string) []string { return s.answerFlags }
func (s *stubSanitizer) Flags() []string             { return s.preFlags }

// stubFactory makes stubSanitizers numbered from 1; pre[i] and answer[i]
// are the pre-filter and answer flags of sanitizer i+1.
func stubFactory(note bool, pre, answer [][]string) (func() judge.Sanitizer, *[]*stubSanitizer) {
	var made []*stubSanitizer
	return func() judge.Sanitizer {
		s := &stubSanitizer{id: len(made) + 1, note: note}
		if len(made) < len(pre) {
			s.preFlags = pre[len(made)]
		}
		if len(made) < len(answer) {
			s.answerFlags = answer[len(made)]
		}
		made = append(made, s)
		return s
	}, &made
}

// call makes one call whose prompt wraps text and whose system is system.
func call(t *testing.T, c *judgemetric.Caller, system, text string) (string, error) {
	t.Helper()
	return c.Call(t.Context(), func(s judge.Sanitizer) *judge.Request {
		return &judge.Request{System: system, Prompt: "Rate: " + s.Untrusted("response", text), Metric: "overwritten"}
	})
}

func TestCallerRequests(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.QueueText("a1", "a2", "a3")
	newSan, made := stubFactory(true, nil, nil)
	c := (&judgemetric.Base{ID: "coherence", Judge: j, NewSan: newSan}).Caller()
	for i, system := range []string{"Grade the answer.", "", "Grade again."} {
		ans, err := call(t, c, system, fmt.Sprint("text", i))
		if want := fmt.Sprint("a", i+1); err != nil || ans != want {
			t.Fatalf("call %d: %q, %v; want %q", i, ans, err, want)
		}
	}
	if len(*made) != 3 {
		t.Fatalf("%d sanitizers for 3 calls, want a fresh one per call", len(*made))
	}
	want := []struct{ system, prompt string }{
		{"Grade the answer.\n\nNote of sanitizer 1.", "Rate: [response#1]text0[/response#1]"},
		{"Note of sanitizer 2.", "Rate: [response#2]text1[/response#2]"},
		{"Grade again.\n\nNote of sanitizer 3.", "Rate: [response#3]text2[/response#3]"},
	}
	for i, r := range j.Requests() {
		if r.System != want[i].system || r.Prompt != want[i].prompt || r.Metric != "coherence" {
			t.Errorf("request %d: system %q prompt %q metric %q; want %q %q coherence", i, r.System, r.Prompt, r.Metric, want[i].system, want[i].prompt)
		}
	}
}

func TestCallerNoNote(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.QueueText("a")
	newSan, _ := stubFactory(false, nil, nil)
	c := (&judgemetric.Base{ID: "m", Judge: j, NewSan: newSan}).Caller()
	if _, err := call(t, c, "Grade.", "x"); err != nil {
		t.Fatal(err)
	}
	if s := j.Requests()[0].System; s != "Grade." {
		t.Errorf("system %q: an empty note must leave it unchanged", s)
	}
}

func TestCallerUsage(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.Queue(
		&judge.Response{Text: "a", Judge: "primary", Provider: "openai", Model: "gpt", InputTokens: 100, OutputTokens: 10,
			CostUSD: 0.25, Latency: time.Second, Attempts: 2},
		errors.New("lost"),
		&judge.Response{Text: "b", Judge: "fallback", Provider: "anthropic", Model: "claude", InputTokens: 50, OutputTokens: 5,
			CostUSD: 0.5, Latency: 2 * time.Second, Attempts: 1},
	)
	newSan, _ := stubFactory(false, nil, nil)
	c := (&judgemetric.Base{ID: "m", Judge: j, NewSan: newSan}).Caller()
	for range 3 {
		_, _ = call(t, c, "", "x")
	}
	got := c.Usage()
	want := scorer.JudgeUsage{Judge: "fallback", Provider: "anthropic", Model: "claude", InputTokens: 150, OutputTokens: 15,
		CostUSD: 0.75, Latency: 3 * time.Second, Calls: 2, Attempts: 3}
	if got == nil || *got != want {
		t.Fatalf("usage %+v, want %+v", got, want)
	}
	got.Calls = 99
	if c.Usage().Calls != 2 {
		t.Error("Usage returned the caller's own record")
	}
}

func TestCallerFlags(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.QueueText("a", "b")
	newSan, _ := stubFactory(false,
		[][]string{{"z_prefilter", "injection_suspected"}, {"injection_suspected"}},
		[][]string{{"envelope_echo", "z_prefilter"}, {"envelope_echo", "answer_marker"}})
	c := (&judgemetric.Base{ID: "m", Judge: j, NewSan: newSan}).Caller()
	for range 2 {
		if _, err := call(t, c, "", "x"); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"answer_marker", "envelope_echo", "injection_suspected", "z_prefilter"}
	fs := c.Flags()
	if !slices.Equal(fs, want) {
		t.Fatalf("flags %v, want %v (merged, sorted, no duplicates)", fs, want)
	}
	fs[0] = "changed"
	if c.Flags()[0] != "answer_marker" {
		t.Error("Flags returned the caller's own slice")
	}

	r := scorer.Result{Score: 1, Details: map[string]any{"claims": 3}}
	r = c.Finish(r)
	if r.Metric != "m" || r.Judge == nil || r.Judge.Calls != 2 || r.Score != 1 {
		t.Errorf("finished result %+v", r)
	}
	if got, _ := r.Details[judgemetric.FlagsKey].([]string); !slices.Equal(got, want) || r.Details["claims"] != 3 {
		t.Errorf("details %v", r.Details)
	}
}

func TestCallerAllFailed(t *testing.T) {
	j := judgemetrictest.NewJudge()
	refused := &judge.Error{Class: judge.ClassRefusal, Err: errors.New("no")}
	j.Queue(refused, refused)
	newSan, _ := stubFactory(false, [][]string{{"injection_suspected"}}, [][]string{{"envelope_echo"}})
	c := (&judgemetric.Base{ID: "m", Judge: j, NewSan: newSan}).Caller()
	for range 2 {
		if _, err := call(t, c, "", "x"); !errors.Is(err, refused) {
			t.Fatalf("error %v, want the judge's error", err)
		}
	}
	if u := c.Usage(); u != nil {
		t.Errorf("usage %+v after failed calls, want none", u)
	}
	// The content's flags stand; no answer means no answer flags.
	if fs := c.Flags(); !slices.Equal(fs, []string{"injection_suspected"}) {
		t.Errorf("flags %v", fs)
	}
	r := scorer.Result{Judge: &scorer.JudgeUsage{Calls: 7}}
	r = c.Finish(r)
	if r.Judge != nil || r.Metric != "m" {
		t.Errorf("result %+v: want no usage", r)
	}
	if fs, _ := r.Details[judgemetric.FlagsKey].([]string); !slices.Equal(fs, []string{"injection_suspected"}) {
		t.Errorf("details %v", r.Details)
	}
}

func TestFinishWithoutFlags(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.QueueText("a")
	newSan, _ := stubFactory(false, nil, nil)
	c := (&judgemetric.Base{ID: "m", Judge: j, NewSan: newSan}).Caller()
	if _, err := call(t, c, "", "x"); err != nil {
		t.Fatal(err)
	}
	var r scorer.Result
	r = c.Finish(r)
	if r.Details != nil {
		t.Errorf("details %v: no flags must leave Details alone", r.Details)
	}
	if r.Judge == nil || r.Judge.Calls != 1 || r.Judge.Judge != judgemetrictest.JudgeName {
		t.Errorf("usage %+v", r.Judge)
	}
}
