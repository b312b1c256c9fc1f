package scorertest

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Trajectories returns a 10-call run and its 10-call reference: the
// reference changes one call's arguments (a number written 4.0, a
// different value, fewer keys) and swaps two calls.
func Trajectories() (pred, ref []agentrun.ToolCall) {
	for i := 0; i < 10; i++ {
		pred = append(pred, agentrun.ToolCall{
			Name:      fmt.Sprintf("tool_%d", i%4),
			Arguments: fmt.Sprintf(`{"query": "weather in city %d", "limit": %d, "units": "metric", "filters": {"days": 3, "hourly": true}}`, i, i+1),
		})
	}
	ref = append([]agentrun.ToolCall(nil), pred...)
	ref[3].Arguments = `{"query": "weather in city 3", "limit": 4.0, "units": "imperial"}`
	ref[5], ref[6] = ref[6], ref[5]
	return pred, ref
}

// ToolCallOutput writes calls as a Vertex tool-call output.
func ToolCallOutput(cs []agentrun.ToolCall) string {
	s := `{"content": "", "tool_calls": [`
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf(`{"name": %q, "arguments": %s}`, c.Name, c.Arguments)
	}
	return s + "]}"
}
