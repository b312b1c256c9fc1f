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
	dialogueUser      = "user"
	dialogueAssistant = "assistant"
	dialogueTool      = "tool"
)

// dialogue returns the run's messages in order: the Transcript when the
// source gave one; otherwise, per invocation, the user's message, an
// assistant message with the invocation's tool calls, one tool message per
// call and the final response; otherwise the earlier conversation, the
// prompt, then the run's steps (each model call's text with the tool
// calls after it, and their outputs: see stepMessages) or, when the trace
// records no model text, the run's tool calls, their outputs and the
// response.
func dialogue(in *scorer.Instance) []agentrun.Message {
	if len(in.Transcript) > 0 {
		out := make([]agentrun.Message, 0, len(in.Transcript))
		for _, m := range in.Transcript {
			if m.Role = normRole(m.Role); m.Role != "" {
				out = append(out, m)
			}
		}
		return out
	}
	var out []agentrun.Message
	turn := func(user string, calls []agentrun.ToolCall, response string) {
		out = append(out, agentrun.Message{Role: dialogueUser, Content: user})
		if len(calls) > 0 {
			out = append(out, agentrun.Message{Role: dialogueAssistant, ToolCalls: calls})
			for _, c := range calls {
				res := c.Result
				if c.Error != "" {
					res = c.Error
				}
				out = append(out, agentrun.Message{Role: dialogueTool, Content: res})
			}
		}
		if response != "" {
			out = append(out, agentrun.Message{Role: dialogueAssistant, Content: response})
		}
	}
	if len(in.Invocations) > 0 {
		for i := range in.Invocations {
			v := &in.Invocations[i]
			turn(v.UserContent, v.PredictedToolCalls, v.Response)
		}
		return out
	}
	for _, m := range in.Conversation {
		if m.Role = normRole(m.Role); m.Role != "" {
			out = append(out, m)
		}
	}
	if steps := stepMessages(in); steps != nil {
		out = append(out, agentrun.Message{Role: dialogueUser, Content: in.Prompt})
		return append(out, steps...)
	}
	turn(in.Prompt, in.PredictedTrajectory, in.Response)
	return out
}

// stepMessages rebuilds a traced run's turn as ragas messages from its
// steps in order: each model call is an AI message with its text and the
// tool calls that follow it, each tool call's output a tool message, and
// the last model call's text the final response. Nil when the run has no
// recorded model text (the caller then shows the calls as one message).
func stepMessages(in *scorer.Instance) []agentrun.Message {
	t := in.Trajectory
	if t == nil {
		return nil
	}
	var out []agentrun.Message
	ai := -1 // the AI message the next tool calls belong to
	texts := 0
	var outputs []agentrun.Message
	flush := func() {
		out = append(out, outputs...)
		outputs = nil
	}
	for _, s := range t.Steps {
		switch {
		case s.Kind == agentrun.StepLLM && s.Index >= 0 && s.Index < len(t.LLMCalls):
			flush()
			txt := t.LLMCalls[s.Index].Output
			if txt != "" {
				texts++
			}
			out = append(out, agentrun.Message{Role: dialogueAssistant, Content: txt})
			ai = len(out) - 1
		case s.Kind == agentrun.StepTool && s.Index >= 0 && s.Index < len(in.PredictedTrajectory):
			c := in.PredictedTrajectory[s.Index]
			if ai < 0 {
				out = append(out, agentrun.Message{Role: dialogueAssistant})
				ai = len(out) - 1
			}
			out[ai].ToolCalls = append(out[ai].ToolCalls, c)
			res := c.Result
			if c.Error != "" {
				res = c.Error
			}
			outputs = append(outputs, agentrun.Message{Role: dialogueTool, Content: res})
		}
	}
	flush()
	if texts == 0 {
		return nil
	}
	// drop model calls that said nothing and called nothing
	kept := out[:0]
	for _, m := range out {
		if m.Role != dialogueAssistant || m.Content != "" || m.ToolCalls != nil {
			kept = append(kept, m)
		}
	}
	return kept
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
