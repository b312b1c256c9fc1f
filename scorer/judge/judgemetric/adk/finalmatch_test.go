package adk

import (
	"errors"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

func fm(label string) string {
	return "```json\n{\"is_the_agent_response_valid\": \"" + label + "\", \"reasoning\": \"r-" + label + "\"}\n```"
}

func TestFinalMatchMajority(t *testing.T) {
	cases := []struct {
		name    string
		answers []string
		score   float64
		conf    float64
	}{
		{"3 of 5 valid", []string{fm("valid"), fm("invalid"), fm("VALID"), fm("invalid"), fm("Valid")}, 1, 0.6},
		{"2 of 5 valid", []string{fm("valid"), fm("invalid"), fm("valid"), fm("invalid"), fm("invalid")}, 0, 0.6},
		{"5 of 5 valid", []string{fm("valid"), fm("valid"), fm("valid"), fm("valid"), fm("valid")}, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(c.answers...)
			res, err := e.Score(t, MetricFinalResponseMatchV2, nil, fixedInstance())
			if err != nil {
				t.Fatal(err)
			}
			if res.Score != c.score || res.Confidence != c.conf {
				t.Fatalf("score %v confidence %v", res.Score, res.Confidence)
			}
			if len(e.Requests()) != 5 || e.Requests()[0].Schema == nil {
				t.Fatalf("%d requests, schema %v", len(e.Requests()), e.Requests()[0].Schema)
			}
			e.AssertSanitized(t, rawTokens)
		})
	}
	// a tie is invalid
	res, err := newEnv(fm("valid"), fm("invalid")).Score(t, MetricFinalResponseMatchV2, map[string]any{"num_samples": 2}, fixedInstance())
	if err != nil || res.Score != 0 || res.Explanation != "r-invalid" {
		t.Fatalf("tie: %v %v %q", res.Score, err, res.Explanation)
	}
}

func TestFinalMatchGolden(t *testing.T) {
	judgemetrictest.GuardGolden(t, Register, MetricFinalResponseMatchV2, MetricFinalResponseMatchV2,
		map[string]any{"num_samples": 1}, fixedInstance(), *update, fm("valid"))
}

func TestFinalMatchErrors(t *testing.T) {
	for _, a := range []string{
		`{"is_the_agent_response_valid": "partially", "reasoning": "x"}`,
		`{"is_the_agent_response_valid": true}`,
		`{"reasoning": "x"}`,
		"valid",
		"",
	} {
		_, err := newEnv(a).Score(t, MetricFinalResponseMatchV2, map[string]any{"num_samples": 1}, fixedInstance())
		judgemetrictest.WantInvalid(t, err)
	}
	in := fixedInstance()
	in.Has &^= scorer.InReference
	if _, err := newEnv().Score(t, MetricFinalResponseMatchV2, nil, in); !errors.Is(err, scorer.ErrNotApplicable) {
		t.Fatalf("no reference: %v", err)
	}
}
