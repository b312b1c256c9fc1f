package judgemetrictest

import (
	"errors"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

func TestJudgeQueue(t *testing.T) {
	j := NewJudge()
	boom := errors.New("boom")
	own := &judge.Response{Text: "own", Judge: "other", InputTokens: 7}
	j.QueueText("first")
	j.Queue(boom, own)
	if j.Pending() != 3 {
		t.Fatalf("pending %d, want 3", j.Pending())
	}
	r, err := j.Judge(t.Context(), &judge.Request{Prompt: "p1"})
	if err != nil || r.Text != "first" || r.Judge != JudgeName || r.Provider != "openai" || r.Model != "fake-model" ||
		r.InputTokens != 100 || r.OutputTokens != 10 || r.CostUSD != 0.001 || r.Attempts != 1 {
		t.Fatalf("answer 1: %+v, %v", r, err)
	}
	if _, err := j.Judge(t.Context(), &judge.Request{Prompt: "p2"}); !errors.Is(err, boom) {
		t.Fatalf("answer 2: error %v, want boom", err)
	}
	r, err = j.Judge(t.Context(), &judge.Request{Prompt: "p3"})
	if err != nil || *r != *own || r == own {
		t.Fatalf("answer 3: %+v, %v; want a copy of %+v", r, err, own)
	}
	if _, err := j.Judge(t.Context(), &judge.Request{Prompt: "p4"}); err == nil {
		t.Fatal("empty queue: want an error")
	}
	if _, err := judgeOnce(t, 42); err == nil {
		t.Fatal("unsupported answer type: want an error")
	}
	reqs := j.Requests()
	if len(reqs) != 4 || reqs[0].Prompt != "p1" || reqs[3].Prompt != "p4" {
		t.Fatalf("requests %v", reqs)
	}
	reqs[0] = nil
	if j.Requests()[0] == nil {
		t.Error("Requests returned the judge's own slice")
	}
}

// judgeOnce calls a judge whose only scripted answer is a.
func judgeOnce(t *testing.T, a any) (*judge.Response, error) {
	j := NewJudge()
	j.Queue(a)
	return j.Judge(t.Context(), &judge.Request{})
}

func TestJudgeRespondAndTemplate(t *testing.T) {
	j := NewJudge()
	j.Response = judge.Response{Judge: "mine", Provider: "anthropic", Model: "m", InputTokens: 3}
	j.QueueText("queued")
	j.Respond = func(r *judge.Request) (string, error) {
		if r.Prompt == "fail" {
			return "", errors.New("refused")
		}
		return "echo " + r.Prompt, nil
	}
	if j.Name() != "mine" {
		t.Errorf("name %q", j.Name())
	}
	r, err := j.Judge(t.Context(), &judge.Request{Prompt: "x"})
	if err != nil || r.Text != "echo x" || r.Judge != "mine" || r.Provider != "anthropic" || r.InputTokens != 3 {
		t.Fatalf("%+v, %v", r, err)
	}
	if _, err := j.Judge(t.Context(), &judge.Request{Prompt: "fail"}); err == nil {
		t.Fatal("want Respond's error")
	}
	if j.Pending() != 1 || len(j.Requests()) != 2 {
		t.Errorf("pending %d, %d requests: Respond must leave the queue alone and record requests", j.Pending(), len(j.Requests()))
	}
}

func TestJudgeConcurrent(t *testing.T) {
	j := NewJudge()
	const n = 64
	for range n {
		j.QueueText("a")
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := j.Judge(t.Context(), &judge.Request{}); err != nil {
				t.Error(err)
			}
			_ = j.Requests()
		})
	}
	wg.Wait()
	if len(j.Requests()) != n || j.Pending() != 0 {
		t.Errorf("%d requests, %d pending", len(j.Requests()), j.Pending())
	}
}
