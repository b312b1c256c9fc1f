package extractor

import (
	"strings"
	"unique"
)

// genaiOnlyKey reports whether key is in the gen_ai namespace or is
// error.type: the keys the GenAI decoder reads, and no other convention's.
func genaiOnlyKey(key string) bool {
	return strings.HasPrefix(key, "gen_ai.") || key == keyErrorType
}

// genaiAbsent is a set of the gen_ai keys that conventions other than OTel
// GenAI look for, found absent from a span's attributes: the detectors that
// scan every key for them skip the scan when the converter found none.
type genaiAbsent uint8

const (
	// absentTLFlat: no OpenLLMetry legacy flat message key
	// (gen_ai.prompt.* or gen_ai.completion.*).
	absentTLFlat genaiAbsent = 1 << iota
	// absentAggregatedUsage: no Pydantic AI gen_ai.aggregated_usage.* key.
	absentAggregatedUsage
	// absentStrandsProvider: no gen_ai.system or gen_ai.provider.name
	// of value strands-agents.
	absentStrandsProvider

	// absentAll is every key set absent: the converter's start.
	absentAll = absentTLFlat | absentAggregatedUsage | absentStrandsProvider
)

// genaiPresentKnown is genaiPresent for a gen_ai key; known reports a
// well-known key (internedKey), which can only be gen_ai.system or
// gen_ai.provider.name of the set: the prefix tests are left for the rest.
func genaiPresentKnown(key, value string, known bool) genaiAbsent {
	if !known {
		return genaiPresent(key, value)
	}
	if value == strandsProvider && (key == keySystem || key == keyProvider) {
		return absentStrandsProvider
	}
	return 0
}

// genaiPresent returns the keys of absentAll that the gen_ai attribute
// key with value is.
func genaiPresent(key, value string) genaiAbsent {
	if len(key) <= len("gen_ai.") {
		return 0
	}
	switch key[len("gen_ai.")] {
	case 'p':
		switch {
		case strings.HasPrefix(key, keyTLPrompt+"."):
			return absentTLFlat
		case key == keyProvider && value == strandsProvider:
			return absentStrandsProvider
		}
	case 'c':
		if strings.HasPrefix(key, keyTLCompletion+".") {
			return absentTLFlat
		}
	case 'a':
		if strings.HasPrefix(key, keyAggregatedUsage) {
			return absentAggregatedUsage
		}
	case 's':
		if key == keySystem && value == strandsProvider {
			return absentStrandsProvider
		}
	}
	return 0
}

// keepSpanAttr is the kept-key policy: which span attributes the assembler
// copies into its records. Decoders can only read what is kept here. The
// readers of span attributes are the genai decoder (gen_ai.* keys and
// error.type), its gen_ai namespace test, and Trajectory.Attributes
// (gen_ai.agent.id, gen_ai.agent.version); resource and event attributes
// are kept whole. A convention that reads other span keys widens this in
// one place.
func keepSpanAttr(key string) bool {
	return genaiOnlyKey(key) || keepOtherAttr(key)
}

// keepOtherAttr is keepSpanAttr for the keys outside the gen_ai namespace
// and error.type.
func keepOtherAttr(key string) bool {
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
// genai reports a kept key that genaiOnlyKey accepts.
func (rk runKeys) keep(key string) (keep, genai bool) {
	if genaiOnlyKey(key) {
		return true, true
	}
	return keepOtherAttr(key) || rk[key], false
}

// keepLog reports whether a log record is a GenAI event the decoders read:
// its event name is in the gen_ai namespace.
func keepLog(eventName string) bool {
	return strings.HasPrefix(eventName, "gen_ai.")
}

// knownKeys are attribute keys that appear on nearly every GenAI span;
// internKey maps each to one shared string, so buffered spans do not each
// hold a copy of the key.
var knownKeys = []string{
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

// internBits sizes the intern table: 256 slots for the known keys keep
// probe sequences short.
const internBits = 8

// internEntry is a slot of internTable: a well-known key and its ga*
// index (genaiKeys; -1 for a key the GenAI decoder does not read).
type internEntry struct {
	key string
	ga  int8
}

// internTable holds knownKeys in open addressing by internHash, so that
// interning (and genaiKeyIndex) costs a few byte loads and one string
// comparison instead of a map lookup. It is read-only.
var internTable = func() *[1 << internBits]internEntry {
	var t [1 << internBits]internEntry
	slot := func(k string) *internEntry {
		h := internHash(k)
		for t[h].key != "" && t[h].key != k {
			h = (h + 1) & (len(t) - 1)
		}
		return &t[h]
	}
	for _, k := range knownKeys {
		*slot(k) = internEntry{k, -1}
	}
	for i, k := range genaiKeys {
		*slot(k) = internEntry{k, int8(i)}
	}
	return &t
}()

// internHash hashes a non-empty key by its length and three of its bytes.
func internHash(k string) int {
	n := len(k)
	h := uint64(n) | uint64(k[n-1])<<8 | uint64(k[n/2])<<16 | uint64(k[n/3])<<24
	return int((h * 0x9e3779b97f4a7c15) >> (64 - internBits))
}

// lookupKey returns the entry of a well-known key; ok is false (and the
// entry's ga -1) for any other key.
func lookupKey(key string) (e internEntry, ok bool) {
	if key == "" {
		return internEntry{ga: -1}, false
	}
	t := internTable
	for h := internHash(key); ; h = (h + 1) & (len(t) - 1) {
		switch e := t[h]; e.key {
		case key:
			return e, true
		case "":
			return internEntry{ga: -1}, false
		}
	}
}

// internKey returns the shared copy of a well-known key, else the
// canonical copy of key (unique.Make): a buffered record then holds no
// key of its own, and no key keeps the decoded request it came from.
func internKey(key string) string {
	k, _ := internedKey(key)
	return k
}

// internedKey is internKey; known reports a well-known key.
func internedKey(key string) (k string, known bool) {
	if e, ok := lookupKey(key); ok || key == "" {
		return e.key, ok
	}
	return unique.Make(key).Value(), false
}
