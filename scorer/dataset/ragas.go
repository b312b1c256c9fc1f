package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// ragasRole maps a Ragas message type (or an OpenAI-style role) to a
// conversation role.
func ragasRole(s string) (string, bool) {
	switch strings.ToLower(s) {
	case "human", "user":
		return agentrun.RoleUser, true
	case "ai", "assistant", "model":
		return agentrun.RoleAssistant, true
	case "tool":
		return agentrun.RoleTool, true
	}
	return "", false
}

// ragasConversation reads a Ragas multi-turn user_input: human, ai (with
// tool_calls) and tool messages. The messages are kept in order as the
// Instance's Transcript, which Ragas metrics render as Ragas does. The
// last human message is the prompt, the messages before it the
// conversation history, and the last ai message with text after it the
// response, so metrics that judge a prompt and its answer pair them as
// they were asked and answered. The predicted trajectory is every ai
// message's tool calls in order (tool messages fill their results in
// order), as Ragas' tool-call metrics compare the whole sample. No
// invocations are built: Ragas compares the whole sample, and so do
// per-invocation metrics on an instance without invocations.
func ragasConversation(in *scorer.Instance, v json.RawMessage) error {
	if in.Has&scorer.InConversation != 0 {
		return errors.New("a conversation is already given")
	}
	items, err := arrayValue(v)
	if err != nil {
		return err
	}
	var pending []int // indexes of predicted calls still waiting for a result
	lastUser := -1
	in.PredictedTrajectory = []agentrun.ToolCall{}
	in.Transcript = make([]agentrun.Message, 0, len(items))
	for i, it := range items {
		m, err := fields(it)
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		kind := m["type"]
		if kind == nil {
			kind = m["role"]
		}
		if kind == nil {
			return fmt.Errorf("message %d: missing \"type\" (or \"role\")", i)
		}
		ks, err := textValue(kind)
		if err != nil {
			return fmt.Errorf("message %d: type %w", i, err)
		}
		role, ok := ragasRole(ks)
		if !ok {
			return fmt.Errorf("message %d: unknown type %q (want human, ai or tool)", i, ks)
		}
		msg := agentrun.Message{Role: role}
		if c := m["content"]; c != nil && !isNull(c) {
			if msg.Content, err = textValue(c); err != nil {
				return fmt.Errorf("message %d: content %w", i, err)
			}
		}
		switch role {
		case agentrun.RoleUser:
			lastUser = len(in.Transcript)
			pending = nil
		case agentrun.RoleAssistant:
			if tc := m["tool_calls"]; tc != nil && !isNull(tc) {
				if msg.ToolCalls, err = callsValue(tc); err != nil {
					return fmt.Errorf("message %d: tool_calls: %w", i, err)
				}
			}
			pending = pending[:0]
			for _, c := range msg.ToolCalls {
				pending = append(pending, len(in.PredictedTrajectory))
				in.PredictedTrajectory = append(in.PredictedTrajectory, c)
			}
		case agentrun.RoleTool:
			if len(pending) > 0 {
				in.PredictedTrajectory[pending[0]].Result = msg.Content
				pending = pending[1:]
			}
		}
		in.Transcript = append(in.Transcript, msg)
	}
	in.Has |= scorer.InPredictedTrajectory
	if lastUser < 0 {
		return nil
	}
	in.Prompt = in.Transcript[lastUser].Content
	in.Has |= scorer.InPrompt
	if lastUser > 0 {
		in.Conversation = in.Transcript[:lastUser:lastUser]
		in.Has |= scorer.InConversation
	}
	for _, m := range in.Transcript[lastUser+1:] {
		if m.Role == agentrun.RoleAssistant && m.Content != "" {
			in.Response = m.Content
			in.Has |= scorer.InResponse
		}
	}
	return nil
}
