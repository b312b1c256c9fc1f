package adk

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// vector is one entry of testdata/vectors.json (metrics.md test vectors).
type vector struct {
	Metric    string          `json:"metric"`
	Input     json.RawMessage `json:"input"`
	Expected  *float64        `json:"expected"`
	Tolerance float64         `json:"tolerance"`
	Note      string          `json:"note"`
}

func loadVectors(t *testing.T, metric string) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var all []vector
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	var out []vector
	for _, v := range all {
		if v.Metric == metric {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no vectors for %s", metric)
	}
	return out
}

// TestVectorsFinalMatchSample runs each judge answer of the vectors
// through the metric with one sample: parseable answers score as
// expected, unparseable ones (expected None) fail with invalid_response.
func TestVectorsFinalMatchSample(t *testing.T) {
	for _, v := range loadVectors(t, "adk_final_response_match_v2_sample_score") {
		t.Run(v.Note, func(t *testing.T) {
			var in struct {
				JudgeOutput string `json:"judge_output"`
			}
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			e := newEnv(in.JudgeOutput)
			res, err := e.Score(t, MetricFinalResponseMatchV2, map[string]any{"num_samples": 1}, fixedInstance())
			if v.Expected == nil {
				judgemetrictest.WantInvalid(t, err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Score != *v.Expected {
				t.Fatalf("score = %v, want %v", res.Score, *v.Expected)
			}
		})
	}
}

// TestVectorsFinalMatchOverall: invocations scored None or NOT_EVALUATED
// in ADK are, here, invocations without a reference (skipped); the rest
// average to the expected 0.5.
func TestVectorsFinalMatchOverall(t *testing.T) {
	v := loadVectors(t, "adk_final_response_match_v2_overall")[0]
	var in struct {
		PerInvocation [][2]any `json:"per_invocation"`
	}
	if err := json.Unmarshal(v.Input, &in); err != nil {
		t.Fatal(err)
	}
	inst := &scorer.Instance{Has: scorer.InPrompt | scorer.InInvocations}
	var answers []string
	for _, p := range in.PerInvocation {
		sc, _ := p[0].(float64)
		judged := p[0] != nil && p[1] != "NOT_EVALUATED"
		inv := scorer.Invocation{UserContent: "q", Response: "a", Reference: "r", HasReference: judged}
		inst.Invocations = append(inst.Invocations, inv)
		if judged {
			label := "invalid"
			if sc == 1 {
				label = "valid"
			}
			answers = append(answers, `{"is_the_agent_response_valid": "`+label+`", "reasoning": "x"}`)
		}
	}
	e := newEnv(answers...)
	res, err := e.Score(t, MetricFinalResponseMatchV2, map[string]any{"num_samples": 1}, inst)
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != *v.Expected {
		t.Fatalf("score = %v, want %v", res.Score, *v.Expected)
	}
	if len(e.Requests()) != 4 {
		t.Fatalf("calls = %d, want 4 (only invocations with a reference)", len(e.Requests()))
	}
}

func TestVectorsHallucinationStep(t *testing.T) {
	for _, v := range loadVectors(t, "adk_hallucinations_v1_step_score") {
		t.Run(v.Note, func(t *testing.T) {
			var in struct {
				ValidatorOutput string `json:"validator_output"`
			}
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			e := newEnv("<sentence>Apples are red.</sentence>", in.ValidatorOutput)
			res, err := e.Score(t, MetricHallucinations, nil, fixedInstance())
			if err != nil {
				t.Fatal(err)
			}
			if !near(res.Score, *v.Expected, v.Tolerance) {
				t.Fatalf("score = %v, want %v", res.Score, *v.Expected)
			}
		})
	}
}

func TestVectorsRubric(t *testing.T) {
	for _, v := range loadVectors(t, "adk_rubric_based_score") {
		t.Run(v.Note, func(t *testing.T) {
			var in struct {
				JudgeSamples []string          `json:"judge_samples"`
				Rubrics      map[string]string `json:"rubrics"`
			}
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatal(err)
			}
			rubrics := []any{
				map[string]any{"rubric_id": "r1", "text": in.Rubrics["r1"]},
				map[string]any{"rubric_id": "r2", "text": in.Rubrics["r2"]},
			}
			for _, id := range []string{MetricRubricFinalResponse, MetricRubricToolUse} {
				e := newEnv(in.JudgeSamples...)
				res, err := e.Score(t, id, map[string]any{"rubrics": rubrics, "num_samples": len(in.JudgeSamples)}, fixedInstance())
				if err != nil {
					t.Fatal(err)
				}
				if !near(res.Score, *v.Expected, v.Tolerance) {
					t.Fatalf("%s: score = %v, want %v", id, res.Score, *v.Expected)
				}
			}
		})
	}
}
