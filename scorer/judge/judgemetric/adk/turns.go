package adk

import (
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
// order, as ADK's invocation events list them, when the run recorded at
// least one intermediate model text (the final response is left out);
// nil otherwise.
func stepEvents(in *scorer.Instance) []event {
	texts := in.IntermediateResponses()
	if len(texts) == 0 {
		return nil
	}
	var out []event
	next := 0
	calls := func(upTo int) {
		for ; next < upTo; next++ {
			out = append(out, event{calls: in.PredictedTrajectory[next : next+1]})
		}
	}
	for _, mt := range texts {
		calls(mt.CallsBefore)
		out = append(out, event{text: mt.Text})
	}
	calls(len(in.PredictedTrajectory))
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
