package dataset

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Message roles as the Instance's conversation spells them.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// ragasRole maps a Ragas message type (or an OpenAI-style role) to a
// conversation role.
func ragasRole(s string) (string, bool) {
	switch strings.ToLower(s) {
	case "human", "user":
		return RoleUser, true
	case "ai", "assistant", "model":
		return RoleAssistant, true
	case "tool":
		return RoleTool, true
	}
	return "", false
}

// ragasConversation reads a Ragas multi-turn user_input: human, ai (with
// tool_calls) and tool messages. The predicted trajectory is every ai
// message's tool calls in order (tool messages fill their results in
// order); the prompt is the first human message and the response the
// last ai message with text. No invocations are built: Ragas compares
// the whole sample, and so do per-invocation metrics on an instance
// without invocations.
func ragasConversation(in *scorer.Instance, v json.RawMessage) error {
	items, err := arrayValue(v)
	if err != nil {
		return err
	}
	var pending []int // indexes of predicted calls still waiting for a result
	seenUser := false
	in.PredictedTrajectory = []agentrun.ToolCall{}
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
		var content string
		if c := m["content"]; c != nil && !isNull(c) {
			if content, err = textValue(c); err != nil {
				return fmt.Errorf("message %d: content %w", i, err)
			}
		}
		in.Conversation = append(in.Conversation, agentrun.Message{Role: role, Content: content})
		switch role {
		case RoleUser:
			if !seenUser {
				in.Prompt = content
				in.Has |= scorer.InPrompt
				seenUser = true
			}
			pending = nil
		case RoleAssistant:
			var calls []agentrun.ToolCall
			if tc := m["tool_calls"]; tc != nil && !isNull(tc) {
				if calls, err = callsValue(tc); err != nil {
					return fmt.Errorf("message %d: tool_calls: %w", i, err)
				}
			}
			pending = pending[:0]
			for _, c := range calls {
				pending = append(pending, len(in.PredictedTrajectory))
				in.PredictedTrajectory = append(in.PredictedTrajectory, c)
			}
			if content != "" {
				in.Response = content
				in.Has |= scorer.InResponse
			}
		case RoleTool:
			if len(pending) > 0 {
				in.PredictedTrajectory[pending[0]].Result = content
				pending = pending[1:]
			}
		}
	}
	in.Has |= scorer.InConversation | scorer.InPredictedTrajectory
	return nil
}
