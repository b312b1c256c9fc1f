package scorer

import (
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// trajBool reads a boolean parameter, or def when absent. YAML booleans
// and the strings "true"/"false" are accepted.
func trajBool(p Params, key string, def bool) (bool, error) {
	v, ok := p[key]
	if !ok || v == nil {
		return def, nil
	}
	switch b := v.(type) {
	case bool:
		return b, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(b)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, fmt.Errorf("param %q: must be true or false, got %v", key, v)
}

// trajCalls converts tool calls to the comparison package's calls.
func trajCalls(calls []agentrun.ToolCall) []toolmatch.Call {
	out := make([]toolmatch.Call, len(calls))
	for i := range calls {
		out[i] = toolmatch.Call{Name: calls[i].Name, Args: calls[i].Arguments}
	}
	return out
}
