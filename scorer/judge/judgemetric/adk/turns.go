package adk

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// turn is one invocation as the ADK metrics read it.
type turn struct {
	user         string
	response     string
	reference    string
	hasReference bool
	calls        []agentrun.ToolCall
	// events are the turn's steps in order when the run recorded them:
	// each model call's text and each tool call; nil otherwise.
	events []event
}

// turns returns the invocations of in: Instance.Invocations when there
// are any, else the Instance's own prompt, response, reference and tool
// calls as a single invocation.
func turns(in *scorer.Instance) []turn {
	if len(in.Invocations) > 0 {
		out := make([]turn, len(in.Invocations))
		for i := range in.Invocations {
			v := &in.Invocations[i]
			out[i] = turn{
				user:         v.UserContent,
				response:     v.Response,
				reference:    v.Reference,
				hasReference: v.HasReference,
				calls:        v.PredictedToolCalls,
			}
		}
		return out
	}
	return []turn{{
		user:         in.Prompt,
		response:     in.Response,
		reference:    in.Reference,
		hasReference: in.Has&scorer.InReference != 0,
		calls:        in.PredictedTrajectory,
		events:       stepEvents(in),
	}}
}

// stepEvents returns the run's model texts and tool calls in execution
// order, as ADK's invocation events list them, when the run recorded its
// steps and at least one model call's text; the last model text, the
// final response, is left out. Nil otherwise.
func stepEvents(in *scorer.Instance) []event {
	t := in.Trajectory
	if t == nil {
		return nil
	}
	var out []event
	texts, last := 0, -1
	for _, s := range t.Steps {
		switch {
		case s.Kind == agentrun.StepLLM && s.Index >= 0 && s.Index < len(t.LLMCalls):
			if txt := t.LLMCalls[s.Index].Output; txt != "" {
				texts++
				last = len(out)
				out = append(out, event{text: txt})
			}
		case s.Kind == agentrun.StepTool && s.Index >= 0 && s.Index < len(in.PredictedTrajectory):
			out = append(out, event{calls: in.PredictedTrajectory[s.Index : s.Index+1]})
		}
	}
	if texts == 0 {
		return nil
	}
	if strings.TrimSpace(out[last].text) == strings.TrimSpace(in.Response) {
		out = append(out[:last], out[last+1:]...)
	}
	return out
}

// agentName names the agent whose instructions and tools the prompts
// show: the run's agent when recorded, else "agent".
func agentName(in *scorer.Instance) string {
	if in.Trajectory != nil && in.Trajectory.Agent != "" {
		return in.Trajectory.Agent
	}
	return "agent"
}
