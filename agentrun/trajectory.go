package agentrun

import (
	"time"
)

// Trajectory is one agent run rebuilt from its spans.
type Trajectory struct {
	TraceID        string // lower-case hex
	RootSpanID     string // the agent (or root) span of this run, lower-case hex
	Service        string // resource attribute service.name
	ServiceVersion string // resource attribute service.version
	Environment    string // deployment.environment.name or deployment.environment
	Agent          string // gen_ai.agent.name or the convention's equivalent
	SessionID      string // gen_ai.conversation.id / session.id
	Convention     string // "genai", "openinference", ...
	Start, End     time.Time

	Input        string           // the user's request for this run
	History      []Message        // earlier turns when the run carries them
	Instructions string           // system / developer instruction
	ToolDefs     []ToolDefinition // declared tools with JSON-schema parameters, when recorded
	ToolCalls    []ToolCall       // in start-time order with a causal tie-break
	Handoffs     []Handoff        `json:",omitempty"` // transfers of control between agents, in order
	LLMCalls     []LLMCall        // in start-time order
	Steps        []Step           // everything in order: llm, tool, sub-agent
	Output       string           // the final response

	Failed    bool   // the run itself errored, or produced no final output
	ErrorType string // error.type or status message of the failure, when known

	// Truncated is set when an attribute value of this run was cut to the
	// configured size limit.
	Truncated bool

	// Attributes holds selected span and resource attributes, for filtering
	// and reference lookup.
	Attributes map[string]string
}

// Latency is the run's wall-clock duration.
func (t *Trajectory) Latency() time.Duration {
	if t.End.Before(t.Start) {
		return 0
	}
	return t.End.Sub(t.Start)
}

// ToolCall is one tool invocation of a run.
type ToolCall struct {
	ID   string // the tool call id, when recorded
	Name string
	// Agent is the agent that made the call (differs from the run's agent
	// for sub-agents).
	Agent string
	// Arguments is the raw argument text as recorded: normally a JSON object.
	Arguments string
	// ArgumentsValid reports whether Arguments is a JSON object.
	ArgumentsValid bool
	Result         string
	Error          string // empty when the call succeeded
	Start, End     time.Time
	SpanID         string
}

// Handoff is a transfer of control from one agent to another (a
// transfer_to_* / handoff tool call), kept apart from the tool calls.
type Handoff struct {
	From, To string // agents; From is empty when unknown
	CallID   string
	SpanID   string // empty when the handoff has no span of its own
	Start    time.Time
}

// LLMCall is one model call of a run.
type LLMCall struct {
	Model         string
	Provider      string
	InputTokens   int64
	OutputTokens  int64
	Start, End    time.Time
	FinishReasons []string
	SpanID        string
	// Output is the text the call produced (its tool calls left out),
	// when the span records it and the run made more than one model call:
	// the agent's intermediate responses between tool calls, and the
	// final response on the last call (a single call's text is the run's
	// Output).
	Output string `json:",omitempty"`
}

// Message is one conversation message.
type Message struct {
	Role    string
	Content string
	// ToolCalls are the calls an assistant message made, in order; their
	// results follow as messages of role "tool". Empty for other roles.
	ToolCalls []ToolCall `json:",omitempty"`
}

// ToolDefinition is a tool declared to the model.
type ToolDefinition struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the tool's arguments, raw; empty
	// when not recorded.
	Parameters string
}

// StepKind classifies a Step.
type StepKind string

// Step kinds.
const (
	StepLLM   StepKind = "llm"
	StepTool  StepKind = "tool"
	StepAgent StepKind = "agent"
)

// Step is one element of a run in execution order.
type Step struct {
	Kind   StepKind
	Name   string // model, tool or agent name
	SpanID string
	Start  time.Time
	End    time.Time
	// Index points into ToolCalls or LLMCalls for tool and llm steps; -1
	// for agent steps.
	Index int
}
