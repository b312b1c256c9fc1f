package ragas

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// workflow renders the run as ragas' MultiTurnSample.pretty_repr: one
// line per message, "Human: <text>", "AI: <text>" (left out when the AI
// message has no text), "Tools:" followed by "  <name>: <args as a Python
// dict>" for each tool call of an AI message, and "ToolOutput: <result>".
//
// With Instance.Invocations, each invocation is the user's message, an AI
// message carrying the invocation's tool calls, one ToolOutput per call
// and the AI's final response. Otherwise the earlier conversation
// (Instance.Conversation: user, assistant and tool messages) comes first,
// then the prompt, the tool calls and the response in the same shape.
func workflow(in *scorer.Instance) string {
	var lines []string
	add := func(user string, calls []agentrun.ToolCall, response string) {
		lines = append(lines, "Human: "+user)
		if len(calls) > 0 {
			lines = append(lines, "Tools:")
			for i := range calls {
				lines = append(lines, "  "+calls[i].Name+": "+pyArgs(calls[i].Arguments))
			}
			for i := range calls {
				out := calls[i].Result
				if calls[i].Error != "" {
					out = calls[i].Error
				}
				lines = append(lines, "ToolOutput: "+out)
			}
		}
		if response != "" {
			lines = append(lines, "AI: "+response)
		}
	}
	if len(in.Invocations) > 0 {
		for i := range in.Invocations {
			v := &in.Invocations[i]
			add(v.UserContent, v.PredictedToolCalls, v.Response)
		}
		return strings.Join(lines, "\n")
	}
	for _, m := range in.Conversation {
		switch strings.ToLower(m.Role) {
		case "user", "human":
			lines = append(lines, "Human: "+m.Content)
		case "assistant", "ai", "model":
			if m.Content != "" {
				lines = append(lines, "AI: "+m.Content)
			}
		case "tool", "function":
			lines = append(lines, "ToolOutput: "+m.Content)
		}
	}
	add(in.Prompt, in.PredictedTrajectory, in.Response)
	return strings.Join(lines, "\n")
}
