package agentrun

import "slices"

// Message roles of a dialogue.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Reply is one model response of a run: its text (empty when the model
// only called tools) and the tool calls it made, as indexes into the
// run's ToolCalls in the order they ran.
type Reply struct {
	Text  string `json:"text,omitempty"`
	Calls []int  `json:"calls,omitempty"`
}

// Replies returns t's model responses in order, from its steps: each
// model call's text with the tool calls that ran after it and before the
// next model call (calls before the first model call are a reply without
// text). Model calls that said nothing and called nothing are left out.
// Nil when the run records no model text: Dialogue then shows the run's
// tool calls and output as one exchange.
func Replies(t *Trajectory) []Reply {
	var out []Reply
	texts := 0
	for _, s := range t.Steps {
		switch {
		case s.Kind == StepLLM && s.Index >= 0 && s.Index < len(t.LLMCalls):
			txt := t.LLMCalls[s.Index].Output
			if txt != "" {
				texts++
			}
			out = append(out, Reply{Text: txt})
		case s.Kind == StepTool && s.Index >= 0 && s.Index < len(t.ToolCalls):
			if len(out) == 0 {
				out = append(out, Reply{})
			}
			out[len(out)-1].Calls = append(out[len(out)-1].Calls, s.Index)
		}
	}
	if texts == 0 {
		return nil
	}
	return slices.DeleteFunc(out, func(r Reply) bool { return r.Text == "" && len(r.Calls) == 0 })
}

// Dialogue is one turn as messages, as a Ragas multi-turn sample holds
// it: the user's input; then each reply as an assistant message carrying
// its tool calls, followed by one tool message per call with its result
// (its error when it failed). Without replies, one assistant message
// carries every call (when there are any), their results follow, and the
// output is the last assistant message (when there is one).
func Dialogue(input string, replies []Reply, calls []ToolCall, output string) []Message {
	out := []Message{{Role: RoleUser, Content: input}}
	whole := replies == nil
	if whole {
		all := make([]int, len(calls))
		for i := range all {
			all[i] = i
		}
		replies = []Reply{{Calls: all}}
	}
	for _, r := range replies {
		m := Message{Role: RoleAssistant, Content: r.Text}
		var results []Message
		for _, i := range r.Calls {
			if i < 0 || i >= len(calls) {
				continue
			}
			c := calls[i]
			m.ToolCalls = append(m.ToolCalls, c)
			res := c.Result
			if c.Error != "" {
				res = c.Error
			}
			results = append(results, Message{Role: RoleTool, Content: res})
		}
		if m.Content != "" || m.ToolCalls != nil {
			out = append(append(out, m), results...)
		}
	}
	if whole && output != "" {
		out = append(out, Message{Role: RoleAssistant, Content: output})
	}
	return out
}
