package extractor

import "strings"

// keepSpanAttr is the kept-key policy: which span attributes the assembler
// copies into its records. Decoders can only read what is kept here. The
// readers of span attributes are the genai decoder (gen_ai.* keys and
// error.type), its gen_ai namespace test, and Trajectory.Attributes
// (gen_ai.agent.id, gen_ai.agent.version); resource and event attributes
// are kept whole. A convention that reads other span keys widens this in
// one place.
func keepSpanAttr(key string) bool {
	if strings.HasPrefix(key, "gen_ai.") || key == keyErrorType {
		return true
	}
	return keepConventionAttr(key) || keepOpenInferenceAttr(key) || keepOpenLLMetryAttr(key)
}

// keepConventionAttr keeps the keys of the conventions other than OTel
// GenAI. It switches on the first byte so that the common non-GenAI keys
// (http.*, server.*, ...) cost one comparison.
func keepConventionAttr(key string) bool {
	if key == "" {
		return false
	}
	switch key[0] {
	case 'a':
		// Vercel AI SDK legacy ai.* spans; Pydantic AI v2 agent_name
		return keepVercelAttr(key) || key == "agent_name" || key == "all_messages_events"
	case 'g':
		// Google ADK
		return strings.HasPrefix(key, "gcp.vertex.agent.")
	case 'f':
		return key == "final_result" // Pydantic AI
	case 'p':
		return strings.HasPrefix(key, "pydantic_ai.")
	case 't':
		return key == "tool_arguments" || key == "tool_response" // Pydantic AI v2
	case 'l':
		return strings.HasPrefix(key, "langsmith.")
	}
	return false
}

// runKeys is the set of configured run attributes (Config.RunAttributes):
// span attributes kept besides the decoders' and copied into trajectories.
type runKeys map[string]bool

func newRunKeys(keys []string) runKeys {
	rk := make(runKeys, len(keys))
	for _, k := range keys {
		if !keepSpanAttr(k) {
			rk[k] = true
		}
	}
	return rk
}

// keep is the span attribute policy: the decoders' keys plus run keys.
func (rk runKeys) keep(key string) bool { return keepSpanAttr(key) || rk[key] }

// keepLog reports whether a log record is a GenAI event the decoders read:
// its event name is in the gen_ai namespace.
func keepLog(eventName string) bool {
	return strings.HasPrefix(eventName, "gen_ai.")
}

// knownKeys maps attribute keys that appear on nearly every GenAI span to
// one shared string, so buffered spans do not each hold a copy of the key.
// It is read-only.
var knownKeys = func() map[string]string {
	keys := []string{
		keyOperation, keyProvider, keySystem, keyRequestModel, keyResponseModel,
		keyResponseID, keyFinishReasons, keyInputTokens, keyOutputTokens,
		keyPromptTokens, keyCompletionTokens, keyInputMessages, keyOutputMessages,
		keySystemInstructions, keyToolDefinitions, keyToolName, keyToolCallID,
		keyToolType, keyToolDescription, keyToolArguments, keyToolResult,
		keyAgentName, keyAgentID, keyAgentDescription, keyConversationID,
		keyErrorType, "server.address", "server.port", "event.name",
		"service.name", "service.version", "service.namespace", "service.instance.id",
		"deployment.environment.name", "deployment.environment",
		"telemetry.sdk.name", "telemetry.sdk.language", "telemetry.sdk.version",
		"host.name", "process.pid", "k8s.pod.name", "k8s.namespace.name",
		"exception.type", "exception.message", "exception.stacktrace",
		"content", "role", "id", "index", "finish_reason", "message", "tool_calls",
		"gen_ai.request.max_tokens", "gen_ai.request.temperature", "gen_ai.request.top_p",
		"gen_ai.output.type", "gen_ai.agent.version", "gen_ai.data_source.id",
	}
	m := make(map[string]string, len(keys))
	for _, k := range keys {
		m[k] = k
	}
	return m
}()

// internKey returns the shared copy of a well-known key, else key itself.
func internKey(key string) string {
	if k, ok := knownKeys[key]; ok {
		return k
	}
	return key
}
