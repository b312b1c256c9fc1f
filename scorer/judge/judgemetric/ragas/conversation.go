package ragas

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// workflow renders the run as ragas' MultiTurnSample.pretty_repr: the
// messages of dialogue joined by newlines, a human message as
// "Human: <text>", a tool message as "ToolOutput: <text>", an AI message
// as "AI: <text>" (left out when it has no text) followed, when it carries
// tool calls, by "Tools:" and "  <name>: <args as a Python dict>" per call.
// The labels are the project's markup; the texts are the run's content.
func workflow(in *scorer.Instance) []judge.Piece {
	var out []judge.Piece
	for i, m := range dialogue(in) {
		sep := ""
		if i > 0 {
			sep = "\n"
		}
		n := len(out)
		add := func(markup, text string) {
			out = append(out, judge.Piece{Markup: sep + markup, Text: text})
			sep = ""
		}
		switch m.Role {
		case dialogueUser:
			add("Human: ", m.Content)
		case dialogueTool:
			add("ToolOutput: ", m.Content)
		default:
			if m.Content != "" {
				add("AI: ", m.Content)
				sep = "\n"
			}
			if m.ToolCalls != nil {
				add("Tools:", "")
				for _, c := range m.ToolCalls {
					add("\n  ", c.Name)
					add(": ", pyArgs(c.Arguments))
				}
			}
		}
		if len(out) == n && i > 0 {
			add("", "") // an AI message without text or tools is an empty line, as in ragas
		}
	}
	return out
}

// Roles of dialogue messages.
const (
	dialogueUser      = agentrun.RoleUser
	dialogueAssistant = agentrun.RoleAssistant
	dialogueTool      = agentrun.RoleTool
)

// dialogue returns the run's messages in order: the Transcript when the
// source gave one (a Ragas sample, or a closed session's turns);
// otherwise each invocation's turn; otherwise the earlier conversation
// and the run's own turn, from its replies when it is a traced run (each
// model call's text with the tool calls after it: see agentrun.Replies).
// Each turn is agentrun.Dialogue.
func dialogue(in *scorer.Instance) []agentrun.Message {
	if len(in.Transcript) > 0 {
		return dialogueRoles(in.Transcript)
	}
	if len(in.Invocations) > 0 {
		var out []agentrun.Message
		for i := range in.Invocations {
			v := &in.Invocations[i]
			out = append(out, agentrun.Dialogue(v.UserContent, nil, v.PredictedToolCalls, v.Response)...)
		}
		return out
	}
	out := dialogueRoles(in.Conversation)
	var replies []agentrun.Reply
	if in.Trajectory != nil {
		replies = agentrun.Replies(in.Trajectory)
	}
	return append(out, agentrun.Dialogue(in.Prompt, replies, in.PredictedTrajectory, in.Response)...)
}

// dialogueRoles returns msgs with their roles normalized (normRole),
// leaving out those of other roles.
func dialogueRoles(msgs []agentrun.Message) []agentrun.Message {
	var out []agentrun.Message
	for _, m := range msgs {
		if m.Role = normRole(m.Role); m.Role != "" {
			out = append(out, m)
		}
	}
	return out
}

// normRole maps the role spellings of traces and datasets to the three
// dialogue roles; "" for others (system messages), which ragas samples
// do not hold.
func normRole(role string) string {
	switch strings.ToLower(role) {
	case "user", "human":
		return dialogueUser
	case "assistant", "ai", "model":
		return dialogueAssistant
	case "tool", "function":
		return dialogueTool
	}
	return ""
}
