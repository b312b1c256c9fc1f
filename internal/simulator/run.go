package simulator

import "time"

// Run is the ground truth of one simulated agent run: what the agent was
// asked, which tools it called with which outcome, and what it answered.
type Run struct {
	TraceID        string // lower-case hex
	SpanID         string // the invoke_agent span, lower-case hex
	Scenario       string // "on-device", "customer-support" or "content-creation"
	Agent          string // gen_ai.agent.name
	Service        string
	Release        string
	Quality        Quality
	ConversationID string
	Model          string
	Input          string // the user's request
	Output         string // the final answer; empty when the run produced none
	ToolCalls      []Call // in call order
	LLMCalls       int    // number of chat spans
	// Failed is set when the run errored (agent span ERROR) or ended
	// without a final answer.
	Failed    bool
	ErrorType string // error.type of the agent span, when it errored
	// Start and End are the simulated timestamps of the invoke_agent span.
	Start, End time.Time
}

// Call is one tool call of a Run.
type Call struct {
	ID        string // gen_ai.tool.call.id
	Name      string
	Arguments string // the raw argument text sent, possibly invalid
	Result    string // empty when the call failed
	Error     string // the span's status message; empty when the call succeeded
	ErrorType string // error.type; empty when the call succeeded
	// InvalidArguments is "json" when Arguments is not valid JSON, "schema"
	// when it violates the tool's declared JSON schema, empty otherwise.
	InvalidArguments string
	// Repeated is set when an earlier call of the run had the same name and
	// arguments (a retry or a redundant repeat).
	Repeated bool
}
