package extractor

import "github.com/evalsidecar/evalsidecar/agentrun"

// The decoders build the agentrun data model; these names keep their code
// short.
type (
	Trajectory     = agentrun.Trajectory
	ToolCall       = agentrun.ToolCall
	Handoff        = agentrun.Handoff
	LLMCall        = agentrun.LLMCall
	Message        = agentrun.Message
	ToolDefinition = agentrun.ToolDefinition
	Step           = agentrun.Step
	StepKind       = agentrun.StepKind
)

// Step kinds.
const (
	StepLLM   = agentrun.StepLLM
	StepTool  = agentrun.StepTool
	StepAgent = agentrun.StepAgent
)
