// Package toolmatch holds the comparison functions behind the tool-call
// and trajectory metrics of Vertex AI, Google ADK and Ragas: JSON
// decoding that keeps Python's view of values (key order, int versus
// float), argument keys under each reference's notion of equality,
// trajectory matching, Python str() of values, and the Vertex tool-call
// output format.
//
// The package works on a run's tool calls and knows nothing of the
// scorer; the scorer's metrics pass it their inputs.
package toolmatch

import "github.com/evalsidecar/evalsidecar/agentrun"

// Call is one tool call. The matchers read its Name and its Arguments,
// the raw JSON text, normally an object (empty or blank Arguments means
// no arguments were recorded), and ignore its other fields.
type Call = agentrun.ToolCall
