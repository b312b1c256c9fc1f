package ragas

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

const goalAnswer = `{"user_goal": "Book a table RAWPROMPT", "end_state": "Table booked RAWRESPONSE"}`

func TestGoalAccuracyWithReference(t *testing.T) {
	e := newEnv(goalAnswer, `{"reason": "same booking", "verdict": "1"}`)
	res, err := e.Score(t, MetricAgentGoalAccuracy, nil, fixedInstance())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 1 || res.Label != "achieved" || res.Explanation != "same booking" || res.Details["with_reference"] != true {
		t.Fatalf("%+v", res)
	}
	if len(e.Requests()) != 2 || !strings.Contains(e.Requests()[1].Prompt, `"desired_outcome": "⟦reference:KEY⟧Table for two`) {
		t.Fatalf("compare prompt does not use the reference:\n%s", e.Requests()[1].Prompt)
	}
	e.AssertSanitized(t, rawTokens)
	judgemetrictest.GuardGolden(t, Register, MetricAgentGoalAccuracy, MetricAgentGoalAccuracy, nil, fixedInstance(), *update,
		goalAnswer, `{"reason": "same booking", "verdict": "1"}`)
}

func TestGoalAccuracyWithoutReference(t *testing.T) {
	for _, p := range []map[string]any{{"with_reference": false}, nil} {
		in := fixedInstance()
		if p == nil {
			in.Has &^= scorer.InReference // default: infer when no reference
		}
		e := newEnv(goalAnswer, `{"reason": "not booked", "verdict": "0"}`)
		res, err := e.Score(t, MetricAgentGoalAccuracy, p, in)
		if err != nil {
			t.Fatal(err)
		}
		if res.Score != 0 || res.Label != "not_achieved" || res.Details["with_reference"] != false {
			t.Fatalf("%+v", res)
		}
		if !strings.Contains(e.Requests()[1].Prompt, `"desired_outcome": "⟦conversation:KEY⟧Book a table RAWPROMPT`) {
			t.Fatalf("compare prompt does not use the inferred goal:\n%s", e.Requests()[1].Prompt)
		}
		e.AssertSanitized(t, rawTokens)
	}
}

func TestGoalAccuracyErrors(t *testing.T) {
	for name, answers := range map[string][]string{
		"numeric verdict":  {goalAnswer, `{"reason": "r", "verdict": 1}`},
		"verdict 2":        {goalAnswer, `{"reason": "r", "verdict": "2"}`},
		"verdict yes":      {goalAnswer, `{"reason": "r", "verdict": "yes"}`},
		"missing end":      {`{"user_goal": "g"}`},
		"goal not JSON":    {"The goal was to book a table."},
		"verdict missing":  {goalAnswer, `{"reason": "r"}`},
		"compare not JSON": {goalAnswer, "1"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := newEnv(answers...).Score(t, MetricAgentGoalAccuracy, nil, fixedInstance())
			judgemetrictest.WantInvalid(t, err)
		})
	}
}

func TestGoalAccuracyParams(t *testing.T) {
	r := scorer.NewRegistry()
	if err := Register(r, newEnv().Deps); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Build([]scorer.MetricConfig{{Name: MetricAgentGoalAccuracy, Params: map[string]any{"with_reference": "yes"}}}); err == nil {
		t.Fatal("string with_reference accepted")
	}
	ms, err := r.Build([]scorer.MetricConfig{{Name: MetricAgentGoalAccuracy, Params: map[string]any{"with_reference": true}}})
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].Needs()&scorer.InReference == 0 {
		t.Fatal("with_reference true does not need a reference")
	}
}
