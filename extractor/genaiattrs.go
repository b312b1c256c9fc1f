package extractor

// Indexes of the span attributes the GenAI decoder reads (genaiKeys).
const (
	gaAgentName = iota
	gaToolName
	gaToolCallID
	gaToolArguments
	gaToolResult
	gaErrorType
	gaResponseModel
	gaRequestModel
	gaProvider
	gaSystem
	gaConversationID
	gaInputTokens
	gaPromptTokens
	gaOutputTokens
	gaCompletionTokens
	gaFinishReasons
	gaInputMessages
	gaOutputMessages
	gaSystemInstructions
	gaToolDefinitions
	gaCount
)

// genaiKeys names the attributes of the ga* indexes.
var genaiKeys = [gaCount]string{
	gaAgentName: keyAgentName, gaToolName: keyToolName, gaToolCallID: keyToolCallID,
	gaToolArguments: keyToolArguments, gaToolResult: keyToolResult, gaErrorType: keyErrorType,
	gaResponseModel: keyResponseModel, gaRequestModel: keyRequestModel, gaProvider: keyProvider,
	gaSystem: keySystem, gaConversationID: keyConversationID, gaInputTokens: keyInputTokens,
	gaPromptTokens: keyPromptTokens, gaOutputTokens: keyOutputTokens, gaCompletionTokens: keyCompletionTokens,
	gaFinishReasons: keyFinishReasons, gaInputMessages: keyInputMessages, gaOutputMessages: keyOutputMessages,
	gaSystemInstructions: keySystemInstructions, gaToolDefinitions: keyToolDefinitions,
}

// genaiKeyIndex returns the ga* index of key, or -1.
func genaiKeyIndex(key string) int {
	e, _ := lookupKey(key)
	return int(e.ga)
}

// genaiAttrs holds the first value of each attribute the GenAI decoder
// reads, found in one pass over a span's attributes instead of one lookup
// per key; values are what attrs.get returns for the same keys.
type genaiAttrs struct {
	vals [gaCount]string
	has  uint32
}

// read takes the values from as.
func (g *genaiAttrs) read(as attrs) {
	for i := range as {
		if k := genaiKeyIndex(as[i].key); k >= 0 && g.has&(1<<k) == 0 {
			g.has |= 1 << k
			g.vals[k] = as[i].value
		}
	}
}

// get returns attribute k and whether the span has it.
func (g *genaiAttrs) get(k int) (string, bool) { return g.vals[k], g.has&(1<<k) != 0 }

// str returns attribute k, or "".
func (g *genaiAttrs) str(k int) string { return g.vals[k] }

// int is intAttr for attributes k, then alt.
func (g *genaiAttrs) int(k, alt int) int64 {
	for _, i := range [2]int{k, alt} {
		if v, ok := g.get(i); ok {
			if n, ok := parseIntAttr(v); ok {
				return n
			}
		}
	}
	return 0
}

// or looks attribute k up on the span, then on the operation-details
// event's attributes.
func (g *genaiAttrs) or(details attrs, k int) (string, bool) {
	if v, ok := g.get(k); ok {
		return v, true
	}
	return details.get(genaiKeys[k])
}
