package judgemetrictest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// JudgeName is the name of the Judge made by NewJudge and of the judge in
// the Deps of this package.
const JudgeName = "fake"

// Judge is a scripted judge.Judge. It answers from Respond when set, else
// from its queue, and records every request. It is safe for concurrent
// use; set Response and Respond before the first call.
type Judge struct {
	// Response is the template of every answer given from a string: its
	// Text is replaced by the answer, the rest (judge, provider, model,
	// tokens, cost, attempts) is copied as is.
	Response judge.Response
	// Respond, when set, answers every request instead of the queue. It
	// is called with the Judge's lock held, one request at a time.
	Respond func(*judge.Request) (string, error)

	mu      sync.Mutex
	answers []any
	reqs    []*judge.Request
}

// NewJudge returns a Judge named JudgeName whose answers report provider
// "openai", model "fake-model", 100 input and 10 output tokens, 0.001
// USD and one attempt.
func NewJudge() *Judge {
	return &Judge{Response: judge.Response{
		Judge: JudgeName, Provider: "openai", Model: "fake-model",
		InputTokens: 100, OutputTokens: 10, CostUSD: 0.001, Attempts: 1,
	}}
}

// Name returns Response.Judge.
func (j *Judge) Name() string { return j.Response.Judge }

// Queue appends scripted answers, used in order: a string is an answer
// text, an error is returned as the call's error, a *judge.Response is
// returned as it is.
func (j *Judge) Queue(answers ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.answers = append(j.answers, answers...)
}

// QueueText appends answer texts.
func (j *Judge) QueueText(answers ...string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, a := range answers {
		j.answers = append(j.answers, a)
	}
}

// Requests returns the requests received so far, in order.
func (j *Judge) Requests() []*judge.Request {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]*judge.Request(nil), j.reqs...)
}

// Pending returns the number of queued answers not used yet.
func (j *Judge) Pending() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.answers)
}

// Judge records req and returns the next scripted answer. With no answer
// left it returns an error.
func (j *Judge) Judge(_ context.Context, req *judge.Request) (*judge.Response, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.reqs = append(j.reqs, req)
	if j.Respond != nil {
		text, err := j.Respond(req)
		if err != nil {
			return nil, err
		}
		return j.text(text), nil
	}
	if len(j.answers) == 0 {
		return nil, errors.New("fake judge: no scripted answer left")
	}
	a := j.answers[0]
	j.answers = j.answers[1:]
	switch a := a.(type) {
	case string:
		return j.text(a), nil
	case error:
		return nil, a
	case *judge.Response:
		r := *a
		return &r, nil
	}
	return nil, fmt.Errorf("fake judge: scripted answer of unsupported type %T", a)
}

func (j *Judge) text(s string) *judge.Response {
	r := j.Response
	r.Text = s
	return &r
}
