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
	}}
}

// agentName names the agent whose instructions and tools the prompts
// show: the run's agent when recorded, else "agent".
func agentName(in *scorer.Instance) string {
	if in.Trajectory != nil && in.Trajectory.Agent != "" {
		return in.Trajectory.Agent
	}
	return "agent"
}
