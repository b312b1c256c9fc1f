package ragas

import (
	"encoding/json"
	"github.com/evalsidecar/evalsidecar/agentrun"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// examples are the samples of testdata/ragas_examples/samples.jsonl in order.
var examples = []string{"topic_adherence", "tool_call_accuracy", "agent_goal_accuracy"}

// loadExamples reads Ragas' published multi-turn examples through the
// dataset reader, as `sidecar eval` reads them.
func loadExamples(t *testing.T) map[string]*scorer.Instance {
	t.Helper()
	rows, err := dataset.Load(filepath.Join("testdata", "ragas_examples", "samples.jsonl"), dataset.FormatJSONL)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(examples) {
		t.Fatalf("%d rows, want %d", len(rows), len(examples))
	}
	out := map[string]*scorer.Instance{}
	for i, name := range examples {
		out[name] = rows[i].Instance
	}
	return out
}

// TestWorkflowEqualsRagas: the transcript the judge sees is exactly
// Ragas' MultiTurnSample.pretty_repr of the same sample.
func TestWorkflowEqualsRagas(t *testing.T) {
	for name, in := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "ragas_examples", name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := judge.JoinPieces(workflow(in)); got != string(want) {
				t.Errorf("rendered\n%s\n\nragas renders\n%s", got, want)
			}
		})
	}
}

// TestExamplePairing: the prompt is the last human message, the response
// the answer to it, the history what came before.
func TestExamplePairing(t *testing.T) {
	ins := loadExamples(t)
	in := ins["tool_call_accuracy"]
	if in.Prompt != "Can you translate that to Celsius?" || in.Response != "75°F is approximately 23.9°C." {
		t.Errorf("prompt %q, response %q", in.Prompt, in.Response)
	}
	if len(in.Conversation) != 2 || in.Conversation[0].Content != "What's the weather like in New York right now?" {
		t.Errorf("history %+v", in.Conversation)
	}
	if len(in.PredictedTrajectory) != 2 || in.PredictedTrajectory[1].Result != "75°F is approximately 23.9°C." {
		t.Errorf("trajectory %+v", in.PredictedTrajectory)
	}
	goal := ins["agent_goal_accuracy"]
	if goal.Prompt != "thanks" || goal.Has&scorer.InResponse != 0 {
		t.Errorf("a sample ending with the user's message: prompt %q, response %q (has %v)", goal.Prompt, goal.Response, goal.Has&scorer.InResponse != 0)
	}
	if m := newEnv().Build(t, scorer.MetricConfig{Name: MetricAgentGoalAccuracy}); goal.Missing(m.Needs()) != 0 {
		t.Errorf("agent goal accuracy is not applicable to Ragas' own example: missing %v", goal.Missing(m.Needs()))
	}
}

// TestExamplesCleanThroughGuard: Ragas' own examples pass the project's
// real sanitizer unchanged; its role labels are the project's markup, not
// reserved markers in the run's content.
func TestExamplesCleanThroughGuard(t *testing.T) {
	for name, in := range loadExamples(t) {
		t.Run(name, func(t *testing.T) {
			e := judgemetrictest.NewGuardEnv(Register, `{"user_goal": "book", "end_state": "booked"}`, `{"reason": "r", "verdict": "1"}`)
			if _, err := e.Score(t, MetricAgentGoalAccuracy, map[string]any{"with_reference": false}, in); err != nil {
				t.Fatal(err)
			}
			judgemetrictest.AssertNoReservedMarker(t, e.Sanitizers)
			want, _ := os.ReadFile(filepath.Join("testdata", "ragas_examples", name+".txt"))
			first := strings.Split(string(want), "\n")[0]
			if p := e.Requests()[0].Prompt; !strings.Contains(p, jsonText(first)) {
				t.Errorf("the workflow's first line %q is not in the prompt as ragas renders it:\n%s", first, p)
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// A traced run is rendered from its steps: the model's text before a tool
// call is an AI message carrying that call, as ragas shows a sample.
func TestWorkflowFromSteps(t *testing.T) {
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
	want := "Human: Weather in Paris?\nAI: Let me look that up.\nTools:\n  get_weather: {'city': 'Paris'}\nToolOutput: sunny\nAI: It is sunny in Paris."
	if got := judge.JoinPieces(workflow(scorer.FromTrajectory(tr))); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
