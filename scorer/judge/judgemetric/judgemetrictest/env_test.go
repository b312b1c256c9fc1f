package judgemetrictest

import (
	"context"
	"errors"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// echoMetric asks the judge for a score of the prompt.
type echoMetric struct {
	id     string
	j      judge.Judge
	newSan func() judge.Sanitizer
}

func (m echoMetric) Name() string         { return m.id }
func (m echoMetric) Needs() scorer.Inputs { return scorer.InPrompt }
func (m echoMetric) JudgeName() string    { return m.j.Name() }
func (m echoMetric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := (&judgemetric.Base{ID: m.id, Judge: m.j, NewSan: m.newSan}).Caller()
	ans, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
		return &judge.Request{System: "Score it.", Prompt: "Prompt: " + s.Untrusted("prompt", in.Prompt)}
	})
	if err != nil {
		return scorer.Result{}, err
	}
	var v struct{ Score float64 }
	if err := judgemetric.DecodeJSON(ans, &v); err != nil {
		return scorer.Result{}, err
	}
	r := scorer.Result{Score: v.Score}
	r = c.Finish(r)
	return r, nil
}

func registerEcho(r *scorer.Registry, deps judgemetric.Deps) error {
	return r.Register("echo", func(params map[string]any) (scorer.Metric, error) {
		j, newSan, err := deps.Resolve("echo", scorer.Params(params))
		if err != nil {
			return nil, err
		}
		return echoMetric{id: "echo", j: j, newSan: newSan}, nil
	})
}

func TestEnv(t *testing.T) {
	e := NewEnv(registerEcho, BracketEnvelope(), `{"score": 0.5}`, `{"score": "x"}`)
	in := &scorer.Instance{Prompt: "RAWPROMPT", Has: scorer.InPrompt}
	res, err := e.Score(t, "echo", nil, in)
	if err != nil || res.Score != 0.5 || res.Metric != "echo" || res.Judge == nil || res.Judge.Judge != JudgeName || res.Judge.InputTokens != 100 {
		t.Fatalf("score %+v, %v", res, err)
	}
	_, err = e.Score(t, "echo", nil, in)
	WantClass(t, err, judge.ClassInvalidResponse)
	reqs := e.Requests()
	if len(reqs) != 2 || e.Sanitizers.Made() != 2 {
		t.Fatalf("%d requests, %d sanitizers", len(reqs), e.Sanitizers.Made())
	}
	e.AssertSanitized(t, []string{"RAWPROMPT"})
	r := record(t, func(tb testing.TB) { e.AssertSanitized(tb, []string{"Prompt:"}) })
	if !r.has("Prompt: outside the sanitizer markers") {
		t.Errorf("Env.AssertSanitized: %q", r.msgs)
	}
	r = record(t, func(tb testing.TB) { e.Golden(tb, "no_such_metric", false) })
	if !r.fatal || !r.has(GoldenFile("no_such_metric")) {
		t.Errorf("Env.Golden on a missing file: %q", r.msgs)
	}
	if reqs[0].Prompt != "Prompt: ⟦prompt:KEY⟧RAWPROMPT⟦/prompt⟧" {
		t.Errorf("prompt %q", reqs[0].Prompt)
	}
	if m := e.Build(t, scorer.MetricConfig{Name: "mine", Type: "echo"}); m == nil {
		t.Fatal("no metric")
	}
	r = record(t, func(tb testing.TB) {
		e.Build(tb, scorer.MetricConfig{Name: "echo", Params: map[string]any{"judge": "other"}})
	})
	if !r.fatal || !r.has(`unknown judge "other"`) {
		t.Errorf("unknown judge: %q", r.msgs)
	}
}

func TestBuildErrors(t *testing.T) {
	deps := Deps(NewJudge(), NewSanitizers(AngleEnvelope()))
	failing := func(*scorer.Registry, judgemetric.Deps) error { return errors.New("no") }
	if _, err := Build(failing, deps, scorer.MetricConfig{Name: "echo"}); err == nil {
		t.Error("register error: want it returned")
	}
	if _, err := Build(registerEcho, deps, scorer.MetricConfig{Name: "nope"}); err == nil {
		t.Error("unknown metric: want an error")
	}
	if deps.DefaultJudge != JudgeName || deps.Judges[JudgeName] == nil {
		t.Errorf("deps %+v", deps)
	}
}
