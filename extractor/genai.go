package extractor

import (
	"strconv"
	"strings"
)

// OTel GenAI semantic convention attribute keys (v1.28–v1.41).
const (
	keyOperation          = "gen_ai.operation.name"
	keyProvider           = "gen_ai.provider.name"
	keySystem             = "gen_ai.system"
	keyRequestModel       = "gen_ai.request.model"
	keyResponseModel      = "gen_ai.response.model"
	keyResponseID         = "gen_ai.response.id"
	keyFinishReasons      = "gen_ai.response.finish_reasons"
	keyInputTokens        = "gen_ai.usage.input_tokens"
	keyOutputTokens       = "gen_ai.usage.output_tokens"
	keyPromptTokens       = "gen_ai.usage.prompt_tokens"
	keyCompletionTokens   = "gen_ai.usage.completion_tokens"
	keyInputMessages      = "gen_ai.input.messages"
	keyOutputMessages     = "gen_ai.output.messages"
	keySystemInstructions = "gen_ai.system_instructions"
	keyToolDefinitions    = "gen_ai.tool.definitions"
	keyToolName           = "gen_ai.tool.name"
	keyToolCallID         = "gen_ai.tool.call.id"
	keyToolType           = "gen_ai.tool.type"
	keyToolDescription    = "gen_ai.tool.description"
	keyToolArguments      = "gen_ai.tool.call.arguments"
	keyToolResult         = "gen_ai.tool.call.result"
	keyAgentName          = "gen_ai.agent.name"
	keyAgentID            = "gen_ai.agent.id"
	keyAgentDescription   = "gen_ai.agent.description"
	keyConversationID     = "gen_ai.conversation.id"
	keyErrorType          = "error.type"
)

// GenAI operation names.
const (
	opInvokeAgent    = "invoke_agent"
	opChat           = "chat"
	opTextCompletion = "text_completion"
	opGenerate       = "generate_content"
	opExecuteTool    = "execute_tool"
)

// classifyGenAI classifies a span by gen_ai.operation.name, else by its
// span name.
func classifyGenAI(s *span) spanClass {
	switch s.attrs.str(keyOperation) {
	case opInvokeAgent:
		return classRun
	case opChat, opTextCompletion, opGenerate:
		return classLLM
	case opExecuteTool:
		return classTool
	case "":
	default:
		return classNone
	}
	switch {
	case s.name == opInvokeAgent || strings.HasPrefix(s.name, opInvokeAgent+" "):
		return classRun
	case strings.HasPrefix(s.name, opExecuteTool+" "):
		return classTool
	}
	if _, ok := s.attrs.get(keyRequestModel); ok {
		return classLLM // the spec's own example omits the operation on a chat span
	}
	return classNone
}

// hasGenAIAttr reports whether any attribute is in the gen_ai namespace.
func hasGenAIAttr(as attrs) bool {
	for i := range as {
		if strings.HasPrefix(as[i].key, "gen_ai.") {
			return true
		}
	}
	return false
}

// decodeGenAI reads the OpenTelemetry GenAI semantic conventions: the
// v1.37+ attributes (gen_ai.input.messages, gen_ai.output.messages,
// gen_ai.system_instructions, gen_ai.tool.call.*) and the v1.28–v1.36
// per-message events, as span events or joined log records.
func decodeGenAI(s *span, evs []*event, f *spanFacts) bool {
	class := classifyGenAI(s)
	var msgEvents []*event
	for _, ev := range evs {
		if isMessageEvent(ev.name) {
			msgEvents = append(msgEvents, ev)
		}
	}
	if class == classNone && !hasGenAIAttr(s.attrs) && msgEvents == nil {
		return false
	}
	f.setClass(class)
	var a genaiAttrs
	a.read(s.attrs)
	setStr(&f.agent, a.str(gaAgentName))
	if f.agent == "" && class == classRun {
		f.agent = nameSuffix(s.name, opInvokeAgent)
	}
	if class == classTool {
		setStr(&f.toolName, a.str(gaToolName))
		if f.toolName == "" {
			f.toolName = firstWord(nameSuffix(s.name, opExecuteTool))
		}
		if id := strings.TrimSpace(a.str(gaToolCallID)); id != "<not specified>" {
			setStr(&f.toolCallID, id)
		}
		f.setArgs(a.get(gaToolArguments))
		setStr(&f.result, a.str(gaToolResult))
	}
	setStr(&f.errorType, a.str(gaErrorType))
	setStr(&f.model, a.str(gaResponseModel))
	setStr(&f.model, a.str(gaRequestModel))
	setStr(&f.provider, a.str(gaProvider))
	setStr(&f.provider, a.str(gaSystem))
	setStr(&f.session, a.str(gaConversationID))
	f.setTokens(a.int(gaInputTokens, gaPromptTokens), a.int(gaOutputTokens, gaCompletionTokens))
	if f.finishReasons == nil {
		f.finishReasons = stringList(a.str(gaFinishReasons))
	}

	details := operationDetails(evs)
	if f.input == nil {
		if v, ok := a.or(details, gaInputMessages); ok {
			f.input = f.rawContent(contentMessages, v)
		} else if msgEvents != nil {
			f.input = f.newContent(content{kind: contentMessages, events: msgEvents})
		}
	}
	if f.output == nil {
		if v, ok := a.or(details, gaOutputMessages); ok {
			f.output = f.rawContent(contentMessages, v)
		} else if hasEvent(msgEvents, evChoice) {
			f.output = f.newContent(content{kind: contentMessages, events: msgEvents, output: true})
		}
	}
	if f.instructions == nil {
		if v, ok := a.or(details, gaSystemInstructions); ok {
			f.instructions = f.rawContent(contentInstructions, v)
		} else if hasEvent(msgEvents, evSystemMessage) {
			f.instructions = f.newContent(content{kind: contentInstructions, events: msgEvents})
		}
	}
	if f.toolDefs == nil {
		if v, ok := a.or(details, gaToolDefinitions); ok {
			f.toolDefs = f.rawContent(contentToolDefs, v)
		}
	}
	return true
}

// operationDetails returns the attributes of a v1.37+
// gen_ai.client.inference.operation.details event, if any.
func operationDetails(evs []*event) attrs {
	for _, ev := range evs {
		if ev.name == evOperationDetails {
			return ev.attrs
		}
	}
	return nil
}

func hasEvent(evs []*event, name string) bool {
	for _, ev := range evs {
		if ev.name == name {
			return true
		}
	}
	return false
}

func setStr(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// nameSuffix returns what follows "prefix " in a span name.
func nameSuffix(name, prefix string) string {
	if rest, ok := strings.CutPrefix(name, prefix+" "); ok {
		return strings.TrimSpace(rest)
	}
	return ""
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// intAttr returns the first of keys that holds an integer.
func intAttr(a attrs, keys ...string) int64 {
	for _, k := range keys {
		if v, ok := a.get(k); ok {
			if n, ok := parseIntAttr(v); ok {
				return n
			}
		}
	}
	return 0
}

// parseIntAttr reads an integer attribute: an integer, or a float in
// [0, 1e18) truncated.
func parseIntAttr(v string) (int64, bool) {
	if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		return n, true
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f < 1e18 {
		return int64(f), true
	}
	return 0, false
}

// stringList reads a string array attribute (rendered as JSON), or a
// single value.
func stringList(v string) []string {
	t := strings.TrimSpace(v)
	if t == "" {
		return nil
	}
	if t[0] == '[' {
		if out, ok := stringArray(t); ok {
			return out
		}
	}
	return []string{v}
}

// stringArray reads the array t (trimmed) in one pass as json.Unmarshal reads
// it into a []string; ok is false where json.Unmarshal fails: invalid JSON,
// or an element that is neither a string nor null.
func stringArray(t string) ([]string, bool) {
	p := scanner{s: t}
	var buf [4]string
	out := buf[:0]
	more, ok := p.elements()
	for ; more; more, ok = p.next(']') {
		var r rawJSON
		if !p.at('"') && !p.at('n') || !p.raw(&r) {
			return nil, false
		}
		out = append(out, rawString(r))
	}
	if !ok || !p.end() {
		return nil, false
	}
	return append([]string{}, out...), true
}

// unwrapJSONString turns a double-encoded value ("\"{...}\"") into the JSON
// it holds; other values are returned as they are.
func unwrapJSONString(v string) string {
	if s := jsonStringValue(v); s != v {
		if u := strings.TrimSpace(s); len(u) > 0 && (u[0] == '{' || u[0] == '[') {
			return s
		}
	}
	return v
}
