// Package adk holds the Google ADK LLM-judge metrics: hallucinations_v1,
// rubric_based_final_response_quality_v1, rubric_based_tool_use_quality_v1
// and adk_final_response_match_v2. Each scores the invocations of a case
// (Instance.Invocations, or the Instance itself as one invocation for a
// single-turn run) the way ADK's evaluators do, with the project's rule
// that a judge answer that does not parse fails the metric with an
// invalid_response error instead of being skipped or given a default.
//
// Safety (ADK's safety_v1) is Vertex's managed metric and is registered by
// the vertex package, not here.
package adk

// Metric ids registered by this package.
const (
	MetricHallucinations       = "hallucinations_v1"
	MetricRubricFinalResponse  = "rubric_based_final_response_quality_v1"
	MetricRubricToolUse        = "rubric_based_tool_use_quality_v1"
	MetricFinalResponseMatchV2 = "adk_final_response_match_v2"
)

// Sanitizer field names: every piece of run content is passed through
// judge.Sanitizer.Untrusted under one of these names, which the per-metric
// allow-lists refer to.
const (
	FieldPrompt           = "prompt"            // the user's request of an invocation
	FieldResponse         = "response"          // the agent's final (or intermediate) answer
	FieldReference        = "reference"         // the expected final answer
	FieldInstruction      = "instruction"       // the agent's developer instructions
	FieldToolDeclarations = "tool_declarations" // declared tools and their schemas
	FieldToolCalls        = "tool_calls"        // tool calls with their arguments and results
)
