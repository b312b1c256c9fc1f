package vertex

import (
	"context"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// tracedRun is a traced run: the model says it will look the weather up,
// calls a tool, says what it found, calls another, then answers.
func tracedRun() *scorer.Instance {
	tr := &agentrun.Trajectory{
		Input:  "Weather in Paris and Rome?",
		Output: "Sunny in Paris, rainy in Rome.",
		LLMCalls: []agentrun.LLMCall{
			{Output: "Let me look that up."},
			{Output: "Paris is sunny; now Rome."},
			{Output: "Sunny in Paris, rainy in Rome."},
		},
		ToolCalls: []agentrun.ToolCall{
			{Name: "get_weather", Arguments: `{"city":"Paris"}`, ArgumentsValid: true, Result: "sunny"},
			{Name: "get_weather", Arguments: `{"city":"Rome"}`, ArgumentsValid: true, Result: "rainy"},
		},
		Steps: []agentrun.Step{
			{Kind: agentrun.StepLLM, Index: 0},
			{Kind: agentrun.StepTool, Index: 0},
			{Kind: agentrun.StepLLM, Index: 1},
			{Kind: agentrun.StepTool, Index: 1},
			{Kind: agentrun.StepLLM, Index: 2},
		},
	}
	return scorer.FromTrajectory(tr)
}

// With evaluate_intermediate_nl_responses, hallucination_v1 judges each
// intermediate response against the tool calls made before it, then the
// final one against all, and scores the share over every claim.
func TestHallucinationIntermediateResponses(t *testing.T) {
	label := func(claim, l string) string {
		return `{"claims": [{"claim": "` + claim + `", "label": "` + l + `", "rationale": "r"}]}`
	}
	j := judgemetrictest.NewJudge()
	j.Queue(`{"claims": ["Let me look that up."]}`, label("Let me look that up.", "no_rad"),
		`{"claims": ["Paris is sunny."]}`, label("Paris is sunny.", "supported"),
		`{"claims": ["Rome is rainy."]}`, label("Rome is rainy.", "unsupported"))
	res, err := build(t, j, "hallucination_v1", "", map[string]any{ParamIntermediate: true}).Score(context.Background(), tracedRun())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 2.0/3 || res.Details["responses"] != 3 || res.Details["claims"] != 3 {
		t.Fatalf("score %v details %v", res.Score, res.Details)
	}
	reqs := j.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d judge calls, want 6 (segment and label per response)", len(reqs))
	}
	for i, c := range []struct {
		response string
		calls    []string // tool results the evidence must show
		not      []string // and must not
	}{
		{"Let me look that up.", nil, []string{"sunny", "rainy"}},
		{"Paris is sunny; now Rome.", []string{"sunny"}, []string{"rainy"}},
		{"Sunny in Paris, rainy in Rome.", []string{"sunny", "rainy"}, nil},
	} {
		if seg := reqs[2*i].Prompt; !strings.Contains(seg, c.response) {
			t.Errorf("response %d: segmentation prompt lacks %q:\n%s", i, c.response, seg)
		}
		ev := reqs[2*i+1].Prompt
		ev = ev[:strings.Index(ev, "# Claims")]
		for _, s := range c.calls {
			if !strings.Contains(ev, s) {
				t.Errorf("response %d: evidence lacks the earlier tool result %q:\n%s", i, s, ev)
			}
		}
		for _, s := range c.not {
			if strings.Contains(ev, s) {
				t.Errorf("response %d: evidence holds the later tool result %q:\n%s", i, s, ev)
			}
		}
	}

	// Without the flag only the final response is judged.
	j = judgemetrictest.NewJudge()
	j.Queue(`{"claims": ["Rome is rainy."]}`, label("Rome is rainy.", "supported"))
	res, err = build(t, j, "hallucination_v1", "", nil).Score(context.Background(), tracedRun())
	if err != nil || res.Score != 1 || len(j.Requests()) != 2 {
		t.Fatalf("default: %v %+v, %d calls", err, res, len(j.Requests()))
	}
	if _, ok := res.Details["responses"]; ok {
		t.Error("default: details count responses")
	}
	if _, err := buildErr(judgemetrictest.NewJudge(), "grounding_v1", "", map[string]any{ParamIntermediate: true}); err == nil {
		t.Error("grounding_v1 accepted evaluate_intermediate_nl_responses")
	}
	if _, err := buildErr(judgemetrictest.NewJudge(), "hallucination_v1", "", map[string]any{ParamIntermediate: "yes"}); err == nil {
		t.Error("a non-boolean flag was accepted")
	}
}
