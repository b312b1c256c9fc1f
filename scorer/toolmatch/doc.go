// Package toolmatch holds the comparison functions behind the tool-call
// and trajectory metrics of Vertex AI, Google ADK and Ragas: JSON
// decoding that keeps Python's view of values (key order, int versus
// float), argument keys under each reference's notion of equality,
// trajectory matching, Python str() of values, and the Vertex tool-call
// output format.
//
// The package works on Call values (a name and raw JSON arguments) and
// knows nothing of the scorer; the scorer's metrics adapt their inputs to
// it.
package toolmatch

import "github.com/evalsidecar/evalsidecar/agentrun"

// Call is one tool call: the tool's name and its arguments as raw JSON
// text, normally an object. Empty (or blank) Args means no arguments were
// recorded.
type Call struct {
	Name string
	Args string
}

// Calls converts a run's tool calls to the calls the matchers compare.
func Calls(calls []agentrun.ToolCall) []Call {
	out := make([]Call, len(calls))
	for i := range calls {
		out[i] = Call{Name: calls[i].Name, Args: calls[i].Arguments}
	}
	return out
}
