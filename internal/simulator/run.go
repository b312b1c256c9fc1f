package simulator

import "time"

// Run is the ground truth of one simulated agent run: what the agent was
// asked, which tools it called with which outcome, and what it answered.
type Run struct {
	TraceID        string  `json:"trace_id"` // lower-case hex
	SpanID         string  `json:"span_id"`  // the invoke_agent span, lower-case hex
	Scenario       string  `json:"scenario"` // "on-device", "customer-support" or "content-creation"
	Agent          string  `json:"agent"`    // gen_ai.agent.name
	Service        string  `json:"service"`
	Release        string  `json:"release"`
	Quality        Quality `json:"quality"`
	ConversationID string  `json:"conversation_id"`
	Model          string  `json:"model"`
	Input          string  `json:"input"`      // the user's request
	Output         string  `json:"output"`     // the final answer; empty when the run produced none
	ToolCalls      []Call  `json:"tool_calls"` // in call order
	LLMCalls       int     `json:"llm_calls"`  // number of chat spans
	// Failed is set when the run errored (agent span ERROR) or ended
	// without a final answer.
	Failed    bool   `json:"failed"`
	ErrorType string `json:"error_type,omitempty"` // error.type of the agent span, when it errored
	// Start and End are the simulated timestamps of the invoke_agent span.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Call is one tool call of a Run.
type Call struct {
	ID        string `json:"id"` // gen_ai.tool.call.id
	Name      string `json:"name"`
	Arguments string `json:"arguments"`            // the raw argument text sent, possibly invalid
	Result    string `json:"result,omitempty"`     // empty when the call failed
	Error     string `json:"error,omitempty"`      // the span's status message; empty when the call succeeded
	ErrorType string `json:"error_type,omitempty"` // error.type; empty when the call succeeded
	// InvalidArguments is "json" when Arguments is not valid JSON, "schema"
	// when it violates the tool's declared JSON schema, empty otherwise.
	InvalidArguments string `json:"invalid_arguments,omitempty"`
	// Repeated is set when an earlier call of the run had the same name and
	// arguments (a retry or a redundant repeat).
	Repeated bool `json:"repeated,omitempty"`
}
