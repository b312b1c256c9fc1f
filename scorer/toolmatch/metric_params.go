package toolmatch

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// trajBool reads a boolean parameter, or def when absent. YAML booleans
// and the strings "true"/"false" are accepted.
func trajBool(p scorer.Params, key string, def bool) (bool, error) {
	if s, ok := p[key].(string); ok {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return p.Bool(key, def)
}

// Calls converts a run's tool calls to the calls the matchers compare.
func Calls(calls []agentrun.ToolCall) []Call {
	out := make([]Call, len(calls))
	for i := range calls {
		out[i] = Call{Name: calls[i].Name, Args: calls[i].Arguments}
	}
	return out
}
