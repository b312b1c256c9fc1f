package extractor

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// Google ADK (adk-python) keys. Its tracer is named gcp.vertex.agent, and
// it puts that name in gen_ai.system as well.
const (
	adkScope           = "gcp.vertex.agent"
	adkPrefix          = "gcp.vertex.agent."
	keyADKLLMRequest   = "gcp.vertex.agent.llm_request"
	keyADKLLMResponse  = "gcp.vertex.agent.llm_response"
	keyADKToolArgs     = "gcp.vertex.agent.tool_call_args"
	keyADKToolResponse = "gcp.vertex.agent.tool_response"
	keyADKSessionID    = "gcp.vertex.agent.session_id"
	adkMergedTools     = "execute_tool (merged)"
)

// isADK reports whether s was emitted by ADK.
func isADK(s *span) bool {
	if s.scope == adkScope {
		return true
	}
	if s.genaiOnly {
		return false // no gcp.vertex.agent.* key
	}
	for i := range s.attrs {
		if k := s.attrs[i].key; len(k) > len(adkPrefix) && k[0] == 'g' && k[1] == 'c' && strings.HasPrefix(k, adkPrefix) {
			return true
		}
	}
	return false
}

// adkCaptured returns an ADK content value, or "" when it is absent or
// the placeholder written when content capture is off.
func adkCaptured(a attrs, key string) string {
	v := strings.TrimSpace(a.str(key))
	switch v {
	case "{}", "N/A", "<not serializable>", "null":
		return ""
	}
	return v
}

// decodeADK reads Google ADK spans of every generation: invocation →
// agent_run [name] (early 1.x) or invoke_agent name (later) → call_llm →
// execute_tool name, invoke_workflow roots and generate_content children
// (2026), with content in gcp.vertex.agent.* JSON strings ("{}" when
// content capture is off). It runs after the GenAI decoder, which reads the
// gen_ai.* keys ADK also sets.
func decodeADK(s *span, _ []*event, f *spanFacts) bool {
	if !isADK(s) {
		return false
	}
	claimConvention(f, "adk")
	a := s.attrs
	if f.provider == adkScope {
		f.provider = "" // the framework, not the model provider
	}
	setStr(&f.session, a.str(keyADKSessionID))
	switch {
	case s.name == adkMergedTools:
		// a summary of parallel calls whose own spans also exist
		f.class, f.toolName, f.toolCallID, f.args, f.hasArgs, f.result = classNone, "", "", "", false, ""
		return true
	case strings.HasPrefix(s.name, "agent_run ["):
		f.setClass(classRun)
		setStr(&f.agent, strings.TrimSuffix(strings.TrimPrefix(s.name, "agent_run ["), "]"))
	case s.name == "call_llm":
		f.setClass(classLLM)
	}
	switch f.class {
	case classLLM:
		req := adkCaptured(a, keyADKLLMRequest)
		resp := adkCaptured(a, keyADKLLMResponse)
		if req != "" {
			if f.input == nil {
				f.input = f.newContent(content{kind: contentMessages, raw: req, parse: parseADKRequest})
			}
			if f.model == "" {
				f.model = gjson.Get(req, "model").String()
			}
		}
		if resp != "" {
			if f.output == nil {
				f.output = f.newContent(content{kind: contentMessages, raw: resp, parse: parseADKResponse})
			}
			if f.inputTokens == 0 || f.outputTokens == 0 {
				u := gjson.GetMany(resp, "usage_metadata.prompt_token_count", "usage_metadata.candidates_token_count")
				f.setTokens(u[0].Int(), u[1].Int())
			}
			if f.finishReasons == nil {
				f.setFinishReason(strings.ToLower(gjson.Get(resp, "finish_reason").String()))
			}
		}
	case classTool:
		if args := adkCaptured(a, keyADKToolArgs); args != "" && !f.hasArgs {
			f.args, f.hasArgs = args, true
		}
		if r := adkCaptured(a, keyADKToolResponse); r != "" {
			setStr(&f.result, adkToolResult(r))
		}
	}
	return true
}

// adkToolResult unwraps the {"result": value} object ADK records for a
// tool that returned something other than a dict.
func adkToolResult(r string) string {
	if !strings.HasPrefix(r, "{") || !gjson.Valid(r) {
		return r
	}
	obj := gjson.Parse(r)
	n := 0
	obj.ForEach(func(_, _ gjson.Result) bool { n++; return n < 2 })
	if n != 1 {
		return r
	}
	v := obj.Get("result")
	if !v.Exists() {
		return r
	}
	if v.Type == gjson.String {
		return v.Str
	}
	return v.Raw
}

// wireADKPart is one part of a google.genai Content, in the snake_case
// ADK writes (camelCase accepted too).
type wireADKPart struct {
	Text             rawJSON          `json:"text"`
	Thought          rawJSON          `json:"thought"`
	FunctionCall     *wireADKFunction `json:"function_call"`
	FunctionCallC    *wireADKFunction `json:"functionCall"`
	FunctionResponse *wireADKFunction `json:"function_response"`
	FunctionRespC    *wireADKFunction `json:"functionResponse"`
}

type wireADKFunction struct {
	ID       rawJSON `json:"id"`
	Name     rawJSON `json:"name"`
	Args     rawJSON `json:"args"`
	Response rawJSON `json:"response"`
}

type wireADKContent struct {
	Role  rawJSON       `json:"role"`
	Parts []wireADKPart `json:"parts"`
}

// adkMessage converts a Content: role model is the assistant, and a user
// content holding only function responses is a tool message.
func adkMessage(w *wireADKContent) message {
	m := message{Role: rawString(w.Role)}
	if m.Role == "model" {
		m.Role = "assistant"
	}
	onlyResponses := len(w.Parts) > 0
	for i := range w.Parts {
		p := &w.Parts[i]
		call := p.FunctionCall
		if call == nil {
			call = p.FunctionCallC
		}
		resp := p.FunctionResponse
		if resp == nil {
			resp = p.FunctionRespC
		}
		switch {
		case call != nil:
			onlyResponses = false
			m.Parts = append(m.Parts, part{Type: partToolCall, ID: strings.TrimSpace(rawString(call.ID)), Name: rawString(call.Name), Arguments: rawString(call.Args)})
		case resp != nil:
			m.Parts = append(m.Parts, part{Type: partToolCallResponse, ID: strings.TrimSpace(rawString(resp.ID)), Name: rawString(resp.Name), Response: adkToolResult(rawString(resp.Response))})
		default:
			onlyResponses = false
			if strings.TrimSpace(string(p.Thought)) == "true" {
				m.Parts = append(m.Parts, part{Type: "reasoning", Content: rawString(p.Text)})
			} else if t := rawString(p.Text); t != "" {
				m.Parts = append(m.Parts, part{Type: partText, Content: t})
			}
		}
	}
	if onlyResponses && m.Role == "user" {
		m.Role = "tool"
	}
	return m
}

// parseADKRequest decodes gcp.vertex.agent.llm_request: the system
// instruction (config.system_instruction) and the contents.
func parseADKRequest(raw, _ string) []message {
	var w struct {
		Config struct {
			SystemInstruction  rawJSON `json:"system_instruction"`
			SystemInstructionC rawJSON `json:"systemInstruction"`
		} `json:"config"`
		Contents []wireADKContent `json:"contents"`
	}
	if json.Unmarshal([]byte(raw), &w) != nil {
		return nil
	}
	out := make([]message, 0, len(w.Contents)+1)
	si := w.Config.SystemInstruction
	if len(si) == 0 {
		si = w.Config.SystemInstructionC
	}
	if sys := adkInstruction(si); sys != "" {
		out = append(out, message{Role: "system", Parts: textParts(sys)})
	}
	for i := range w.Contents {
		out = append(out, adkMessage(&w.Contents[i]))
	}
	return out
}

// adkInstruction reads a system instruction given as text, a Content or
// a list of parts.
func adkInstruction(raw rawJSON) string {
	t := strings.TrimSpace(string(raw))
	if t == "" {
		return ""
	}
	if t[0] == '{' {
		var c wireADKContent
		if json.Unmarshal([]byte(t), &c) == nil {
			m := adkMessage(&c)
			return m.text()
		}
	}
	return contentText(rawJSON(t))
}

// parseADKResponse decodes gcp.vertex.agent.llm_response: an LlmResponse
// whose content is the model's output.
func parseADKResponse(raw, _ string) []message {
	var w struct {
		Content      *wireADKContent `json:"content"`
		FinishReason rawJSON         `json:"finish_reason"`
	}
	if json.Unmarshal([]byte(raw), &w) != nil || w.Content == nil {
		return nil
	}
	m := adkMessage(w.Content)
	if m.Role == "" {
		m.Role = "assistant"
	}
	m.FinishReason = strings.ToLower(rawString(w.FinishReason))
	return []message{m}
}
