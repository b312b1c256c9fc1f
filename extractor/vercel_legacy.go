package extractor

import (
	"encoding/json"
	"strings"
)

// Vercel AI SDK legacy telemetry keys: the ai.* spans of ai 3.x–6.x
// (experimental_telemetry) and of ai 7's LegacyOpenTelemetry integration.
const (
	keyAIOperationID     = "ai.operationId"
	keyAIFunctionID      = "ai.telemetry.functionId"
	keyAIMetadataPrefix  = "ai.telemetry.metadata."
	keyAIContextPrefix   = "ai.settings.context."
	keyAIModelID         = "ai.model.id"
	keyAIModelProvider   = "ai.model.provider"
	keyAIPrompt          = "ai.prompt"
	keyAIPromptMessages  = "ai.prompt.messages"
	keyAIResponseText    = "ai.response.text"
	keyAIResponseCalls   = "ai.response.toolCalls"
	keyAIResponseFinish  = "ai.response.finishReason"
	keyAIResponseModel   = "ai.response.model"
	keyAIToolCallName    = "ai.toolCall.name"
	keyAIToolCallID      = "ai.toolCall.id"
	keyAIToolCallArgs    = "ai.toolCall.args"
	keyAIToolCallResult  = "ai.toolCall.result"
	keyAIPromptTokens    = "ai.usage.promptTokens"
	keyAICompletionToks  = "ai.usage.completionTokens"
	keyAIInputTokens     = "ai.usage.inputTokens"
	keyAIOutputTokens    = "ai.usage.outputTokens"
	vercelAIScope        = "ai"
	vercelToolCallOpName = "ai.toolCall"
)

// keepVercelAttr is the kept-key policy of the Vercel decoders.
func keepVercelAttr(key string) bool {
	if !strings.HasPrefix(key, "ai.") {
		return false
	}
	switch key {
	case keyAIOperationID, keyAIFunctionID, keyAIModelID, keyAIModelProvider,
		keyAIPrompt, keyAIPromptMessages, keyAIResponseText, keyAIResponseCalls,
		keyAIResponseFinish, keyAIResponseModel, keyAIToolCallName, keyAIToolCallID,
		keyAIToolCallArgs, keyAIToolCallResult, keyAIPromptTokens, keyAICompletionToks,
		keyAIInputTokens, keyAIOutputTokens:
		return true
	}
	return isVercelSessionKey(key)
}

// vercelSessionNames are the metadata / runtime-context keys that
// applications use for the conversation id.
var vercelSessionNames = [...]string{"sessionId", "session_id", "conversationId", "conversation_id", "threadId", "thread_id", "chatId", "chat_id"}

// isVercelSessionKey reports whether key is an ai.telemetry.metadata.* or
// ai.settings.context.* key that names a session.
func isVercelSessionKey(key string) bool {
	rest, ok := strings.CutPrefix(key, keyAIMetadataPrefix)
	if !ok {
		rest, ok = strings.CutPrefix(key, keyAIContextPrefix)
	}
	if !ok {
		return false
	}
	for _, n := range vercelSessionNames {
		if rest == n {
			return true
		}
	}
	return false
}

// vercelSession returns the session id an application recorded in
// telemetry metadata or runtime context, in vercelSessionNames order.
func vercelSession(a attrs) string {
	for _, n := range vercelSessionNames {
		for _, p := range [...]string{keyAIMetadataPrefix, keyAIContextPrefix} {
			for i := range a {
				if len(a[i].key) == len(p)+len(n) && strings.HasPrefix(a[i].key, p) && strings.HasSuffix(a[i].key, n) {
					if v := strings.TrimSpace(a[i].value); v != "" {
						return v
					}
				}
			}
		}
	}
	return ""
}

// vercelOperation returns the ai.* operation of a span named in the ai.
// namespace (the SDK names each span after its operation id):
// ai.operationId, else the span name.
func vercelOperation(s *span) string {
	if !strings.HasPrefix(s.name, "ai.") {
		return ""
	}
	if op := s.attrs.str(keyAIOperationID); op != "" {
		return op
	}
	return firstWord(s.name)
}

// classifyVercel classifies an ai.* operation.
func classifyVercel(op string) spanClass {
	switch op {
	case "ai.generateText", "ai.streamText", "ai.generateObject", "ai.streamObject":
		return classRun
	case vercelToolCallOpName:
		return classTool
	}
	if strings.HasSuffix(op, ".doGenerate") || strings.HasSuffix(op, ".doStream") {
		return classLLM
	}
	return classNone
}

// decodeVercelLegacy reads the Vercel AI SDK ai.* spans: ai.generateText
// (and streamText, generateObject, streamObject) as the run, their
// doGenerate / doStream children as model calls, ai.toolCall as tool
// calls.
func decodeVercelLegacy(s *span, _ []*event, f *spanFacts) bool {
	op := vercelOperation(s)
	if op == "" {
		return false
	}
	class := classifyVercel(op)
	claimConvention(f, "vercel-ai")
	f.setClass(class)
	a := s.attrs
	setStr(&f.session, vercelSession(a))
	switch class {
	case classRun:
		// the system prompt is a system message of the input: the run's
		// instructions are read from there
		setStr(&f.agent, a.str(keyAIFunctionID))
		f.parsedFrom(&f.input, a, keyAIPrompt, parseVercelPrompt)
		f.parsedFrom(&f.output, a, keyAIResponseText, parseVercelOutput)
	case classLLM:
		setStr(&f.model, a.str(keyAIResponseModel))
		setStr(&f.model, a.str(keyAIModelID))
		setStr(&f.provider, a.str(keyAIModelProvider))
		f.setTokens(intAttr(a, keyAIInputTokens, keyAIPromptTokens), intAttr(a, keyAIOutputTokens, keyAICompletionToks))
		f.setFinishReason(a.str(keyAIResponseFinish))
		f.parsedFrom(&f.input, a, keyAIPromptMessages, parseVercelMessages)
		if f.output == nil {
			text, okText := a.get(keyAIResponseText)
			calls, okCalls := a.get(keyAIResponseCalls)
			if okText || okCalls {
				f.output = f.newContent(content{kind: contentMessages, raw: text, aux: calls, parse: parseVercelOutput})
			}
		}
	case classTool:
		setStr(&f.toolName, a.str(keyAIToolCallName))
		setStr(&f.toolCallID, strings.TrimSpace(a.str(keyAIToolCallID)))
		f.setArgs(a.get(keyAIToolCallArgs))
		if v, ok := a.get(keyAIToolCallResult); ok {
			setStr(&f.result, jsonStringValue(v))
		}
	}
	return true
}

// claimConvention names the convention of a span recognised by a specific
// decoder. The OTel GenAI decoder is the generic base: a library that
// emits gen_ai.* keys among its own is named after the library.
func claimConvention(f *spanFacts, name string) {
	if f.convention == "" || f.convention == "genai" {
		f.convention = name
	}
}

// jsonStringValue returns the text of a JSON string value ("\"x\"" -> x);
// other values are returned as they are.
func jsonStringValue(v string) string {
	t := strings.TrimSpace(v)
	if len(t) < 2 || t[0] != '"' {
		return v
	}
	var s string
	if json.Unmarshal([]byte(t), &s) != nil {
		return v
	}
	return s
}

// wireVercelPrompt is the ai.prompt attribute of a run span.
type wireVercelPrompt struct {
	System   rawJSON `json:"system"`
	Prompt   rawJSON `json:"prompt"`
	Messages rawJSON `json:"messages"`
}

// wireVercelPart is one content part of a Vercel prompt message.
type wireVercelPart struct {
	Type       rawJSON `json:"type"`
	Text       rawJSON `json:"text"`
	ToolCallID rawJSON `json:"toolCallId"`
	ToolName   rawJSON `json:"toolName"`
	Args       rawJSON `json:"args"`   // v4
	Input      rawJSON `json:"input"`  // v5+
	Result     rawJSON `json:"result"` // v4
	Output     rawJSON `json:"output"` // v5+: {type, value}
}

type wireVercelMessage struct {
	Role    rawJSON `json:"role"`
	Content rawJSON `json:"content"`
}

// parseVercelPrompt decodes ai.prompt: {"system"?, "prompt"?, "messages"?}.
// A prompt given as a string is one user message.
func parseVercelPrompt(raw, _ string) []message {
	var w wireVercelPrompt
	if json.Unmarshal([]byte(raw), &w) != nil {
		return nil
	}
	var out []message
	if sys := contentText(w.System); sys != "" {
		out = append(out, message{Role: "system", Parts: textParts(sys)})
	}
	if p := strings.TrimSpace(string(w.Prompt)); p != "" {
		if p[0] == '[' {
			out = append(out, parseVercelMessages(p, "")...)
		} else if t := contentText(rawJSON(p)); t != "" {
			out = append(out, message{Role: "user", Parts: textParts(t)})
		}
	}
	if len(w.Messages) > 0 {
		out = append(out, parseVercelMessages(string(w.Messages), "")...)
	}
	return out
}

// parseVercelMessages decodes a list of messages in the AI SDK's provider
// prompt format (ai.prompt.messages): content is a string or a list of
// text, tool-call and tool-result parts.
func parseVercelMessages(raw, _ string) []message {
	var ws []wireVercelMessage
	if json.Unmarshal([]byte(raw), &ws) != nil {
		return nil
	}
	out := make([]message, 0, len(ws))
	for i := range ws {
		m := message{Role: rawString(ws[i].Role)}
		c := strings.TrimSpace(string(ws[i].Content))
		if strings.HasPrefix(c, "[") {
			var parts []rawJSON
			if json.Unmarshal([]byte(c), &parts) == nil {
				for _, pr := range parts {
					if p, ok := vercelPart(pr); ok {
						m.Parts = append(m.Parts, p)
					}
				}
			}
		} else if t := contentText(rawJSON(c)); t != "" {
			m.Parts = textParts(t)
		}
		if m.Role == "" && len(m.Parts) == 0 {
			continue
		}
		out = append(out, m)
	}
	return out
}

// vercelPart converts one provider prompt part.
func vercelPart(raw rawJSON) (part, bool) {
	t := strings.TrimSpace(string(raw))
	if strings.HasPrefix(t, `"`) {
		return part{Type: partText, Content: rawString(raw)}, true
	}
	var w wireVercelPart
	if json.Unmarshal([]byte(t), &w) != nil {
		return part{}, false
	}
	switch rawString(w.Type) {
	case "text", "":
		return part{Type: partText, Content: rawString(w.Text)}, true
	case "reasoning":
		return part{Type: "reasoning", Content: rawString(w.Text)}, true
	case "tool-call":
		return vercelToolCall(&w), true
	case "tool-result":
		resp := rawString(w.Result)
		if len(w.Output) > 0 {
			var o struct {
				Type  rawJSON `json:"type"`
				Value rawJSON `json:"value"`
			}
			if json.Unmarshal([]byte(w.Output), &o) == nil && len(o.Type) > 0 {
				resp = rawString(o.Value)
			} else {
				resp = rawString(w.Output)
			}
		}
		return part{Type: partToolCallResponse, ID: strings.TrimSpace(rawString(w.ToolCallID)), Name: rawString(w.ToolName), Response: resp}, true
	}
	return part{}, false
}

// vercelToolCall converts a tool-call part or an entry of
// ai.response.toolCalls. Arguments are JSON text: v5+ records input as a
// JSON string holding the object (JSON in JSON), v4 args as the object.
func vercelToolCall(w *wireVercelPart) part {
	args := w.Input
	if len(args) == 0 {
		args = w.Args
	}
	return part{Type: partToolCall, ID: strings.TrimSpace(rawString(w.ToolCallID)), Name: rawString(w.ToolName), Arguments: rawString(args)}
}

// parseVercelOutput builds the assistant message of a step from
// ai.response.text (raw) and ai.response.toolCalls (aux).
func parseVercelOutput(text, calls string) []message {
	m := message{Role: "assistant", Parts: textParts(text)}
	if t := strings.TrimSpace(calls); t != "" {
		var ws []wireVercelPart
		if json.Unmarshal([]byte(t), &ws) == nil {
			for i := range ws {
				m.Parts = append(m.Parts, vercelToolCall(&ws[i]))
			}
		}
	}
	if len(m.Parts) == 0 {
		return nil
	}
	return []message{m}
}
