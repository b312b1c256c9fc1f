package extractor

import "strings"

// Vercel AI SDK 7 (@ai-sdk/otel OpenTelemetry integration) emits OTel GenAI
// spans: invoke_agent {modelId} → step N (gen_ai.operation.name
// agent_step) → chat {modelId} / execute_tool {tool}. The GenAI decoder
// reads them; this decoder adds what is Vercel's own.
const opAgentStep = "agent_step"

// isVercelGenAI reports whether s is a GenAI span of the AI SDK 7: its
// instrumentation scope is "ai", or it is a step span.
func isVercelGenAI(s *span) bool {
	if s.scope == vercelAIScope {
		return true
	}
	return strings.HasPrefix(s.name, "step ") && s.attrs.str(keyOperation) == opAgentStep
}

// decodeVercel reads the Vercel AI SDK 7 additions to the GenAI spans:
// the agent name is gen_ai.agent.name (the functionId) and never the model
// id in the span name, and the session comes from the runtime context
// (ai.settings.context.*) or telemetry metadata.
func decodeVercel(s *span, _ []*event, f *spanFacts) bool {
	if !isVercelGenAI(s) || strings.HasPrefix(s.name, "ai.") {
		return false
	}
	a := s.attrs
	op := a.str(keyOperation)
	if op == "" {
		return false
	}
	claimConvention(f, "vercel-ai")
	if op == opInvokeAgent && a.str(keyAgentName) == "" && f.agent == nameSuffix(s.name, opInvokeAgent) {
		f.agent = "" // the span name holds the model id, not an agent
	}
	setStr(&f.session, vercelSession(a))
	return true
}
