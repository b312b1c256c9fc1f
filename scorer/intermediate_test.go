package scorer

import (
	"reflect"
	"testing"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

func TestIntermediateResponses(t *testing.T) {
	llm := func(i int) agentrun.Step { return agentrun.Step{Kind: agentrun.StepLLM, Index: i} }
	tool := func(i int) agentrun.Step { return agentrun.Step{Kind: agentrun.StepTool, Index: i} }
	calls := make([]agentrun.ToolCall, 2)
	for _, c := range []struct {
		name    string
		outputs []string
		steps   []agentrun.Step
		final   string
		want    []ModelText
	}{
		{"no steps", []string{"a"}, nil, "a", nil},
		{"final text only", []string{"", "done"}, []agentrun.Step{llm(0), tool(0), llm(1)}, "done", nil},
		{"text between calls", []string{"looking", "one more", "done"},
			[]agentrun.Step{llm(0), tool(0), llm(1), tool(1), llm(2)}, "done",
			[]ModelText{{"looking", 0}, {"one more", 1}}},
		{"last text differs from the final response", []string{"x", "y"}, []agentrun.Step{llm(0), tool(0), tool(1), llm(1)}, "z",
			[]ModelText{{"x", 0}, {"y", 2}}},
		{"steps out of range ignored", []string{"a", "done"}, []agentrun.Step{llm(5), tool(9), llm(0), llm(1)}, "done",
			[]ModelText{{"a", 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &agentrun.Trajectory{Output: c.final, ToolCalls: calls, Steps: c.steps}
			for _, o := range c.outputs {
				tr.LLMCalls = append(tr.LLMCalls, agentrun.LLMCall{Output: o})
			}
			if got := FromTrajectory(tr).IntermediateResponses(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
