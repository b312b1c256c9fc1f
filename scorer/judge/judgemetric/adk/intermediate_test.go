package adk

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// agentRun is a traced run: the model says it will look the weather up,
// calls a tool, then answers.
func agentRun() *scorer.Instance {
	tr := &agentrun.Trajectory{
		Input:  "Weather in Paris?",
		Output: "It is sunny in Paris.",
		LLMCalls: []agentrun.LLMCall{
			{Output: "Let me look that up."},
			{Output: "It is sunny in Paris."},
		},
		ToolCalls: []agentrun.ToolCall{{Name: "get_weather", Arguments: `{"city":"Paris"}`, ArgumentsValid: true, Result: "sunny"}},
		Steps: []agentrun.Step{
			{Kind: agentrun.StepLLM, Index: 0},
			{Kind: agentrun.StepTool, Index: 0},
			{Kind: agentrun.StepLLM, Index: 1},
		},
	}
	return scorer.FromTrajectory(tr)
}

const (
	supported = "sentence: %s\nlabel: supported\nrationale: r\nsupporting_excerpt: e\ncontradicting_excerpt: null"
)

// With evaluate_intermediate_nl_responses the model's text before the
// tool call is judged too, against the context before it; the final
// response is judged against everything, the intermediate text included.
func TestHallucinationsIntermediateFromTrace(t *testing.T) {
	e := newEnv(
		"<sentence>Let me look that up.</sentence>", "sentence: Let me look that up.\nlabel: not_applicable\nrationale: plan\nsupporting_excerpt: null\ncontradicting_excerpt: null",
		"<sentence>It is sunny in Paris.</sentence>", strings.Replace(supported, "%s", "It is sunny in Paris.", 1),
	)
	res, err := e.Score(t, MetricHallucinations, map[string]any{ParamIntermediate: true}, agentRun())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 1 || res.Details["steps"] != 2 {
		t.Fatalf("score %v details %v", res.Score, res.Details)
	}
	reqs := e.Requests()
	if !strings.Contains(reqs[0].Prompt, "Let me look that up.") {
		t.Errorf("the intermediate text was not judged:\n%s", reqs[0].Prompt)
	}
	if strings.Contains(reqs[1].Prompt, "get_weather") {
		t.Errorf("the intermediate step's context holds the later tool call:\n%s", reqs[1].Prompt)
	}
	if final := reqs[3].Prompt; !strings.Contains(final, "get_weather") || !strings.Contains(final, "Let me look that up.") {
		t.Errorf("the final step's context lacks the earlier events:\n%s", final)
	}
}

// A step whose answers do not parse is skipped, as ADK skips it; the
// other steps still score.
func TestHallucinationsSkipsUnparsableStep(t *testing.T) {
	e := newEnv(
		"no sentence blocks here",
		"<sentence>It is sunny in Paris.</sentence>", strings.Replace(supported, "%s", "It is sunny in Paris.", 1),
	)
	res, err := e.Score(t, MetricHallucinations, map[string]any{ParamIntermediate: true}, agentRun())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 1 || res.Details["skipped_steps"] != 1 || res.Details["steps"] != 1 {
		t.Fatalf("score %v details %v", res.Score, res.Details)
	}
	// every step unparsable: an error, never a score
	e = newEnv("nothing", "nothing")
	if _, err := e.Score(t, MetricHallucinations, map[string]any{ParamIntermediate: true}, agentRun()); err == nil {
		t.Fatal("want invalid_response when every step is skipped")
	}
}
