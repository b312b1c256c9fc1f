package extractor

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// LangSmith OTel keys. Content is the whole input and output of a run as
// JSON in gen_ai.prompt / gen_ai.completion (not indexed).
const (
	keyLangSmithKind     = "langsmith.span.kind"
	keyLangSmithTrace    = "langsmith.trace.name"
	keyLangSmithMeta     = "langsmith.metadata."
	keyLangSmithModel    = "langsmith.metadata.ls_model_name"
	keyLangSmithProvider = "langsmith.metadata.ls_provider"
	keyWholePrompt       = "gen_ai.prompt"
	keyWholeCompletion   = "gen_ai.completion"
)

// decodeLangSmith reads LangSmith's OTel spans (and LangChain's OTel
// mode): langsmith.span.kind llm / chain / tool, the root chain being the
// run. It runs after the GenAI decoder.
func decodeLangSmith(s *span, _ []*event, f *spanFacts) bool {
	if s.genaiOnly {
		return false // no langsmith.span.kind
	}
	kind, ok := langsmithKind(s.attrs)
	if !ok {
		return false
	}
	claimConvention(f, "langsmith")
	a := s.attrs
	class := classNone
	switch kind {
	case "llm":
		class = classLLM
	case "tool":
		class = classTool
	case "chain":
		if !s.hasParent() {
			class = classRun
		}
	}
	f.setClass(class)
	for _, k := range [...]string{"session_id", "thread_id", "conversation_id"} {
		setStr(&f.session, a.str(keyLangSmithMeta+k))
	}
	prompt, hasPrompt := a.get(keyWholePrompt)
	completion, hasCompletion := a.get(keyWholeCompletion)
	switch f.class {
	case classRun:
		setStr(&f.agent, a.str(keyLangSmithTrace))
		setStr(&f.agent, s.name)
	case classLLM:
		setStr(&f.model, a.str(keyLangSmithModel))
		setStr(&f.provider, a.str(keyLangSmithProvider))
	case classTool:
		setStr(&f.toolName, a.str(keyToolName))
		setStr(&f.toolName, s.name)
		if hasPrompt && !f.hasArgs {
			f.args, f.hasArgs = langsmithToolInput(prompt), true
		}
		if hasCompletion {
			setStr(&f.result, langsmithToolOutput(completion))
		}
		return true
	}
	var input *content // the inputs, when decoded as LangSmith's
	if hasPrompt && f.input == nil {
		f.input = f.newContent(content{kind: contentMessages, raw: prompt, parse: parseLangSmithInput})
		input = f.input
	}
	if hasPrompt && f.class == classLLM && f.instructions == nil {
		// a chain's inputs rarely hold the system prompt; a model's do
		if input != nil {
			f.instructions = f.newContent(content{kind: contentInstructions, from: input})
		} else {
			f.instructions = f.newContent(content{kind: contentInstructions, raw: prompt, parse: parseLangSmithInput})
		}
	}
	if hasCompletion && f.output == nil {
		f.output = f.newContent(content{kind: contentMessages, raw: completion, parse: parseLangSmithOutput})
	}
	return true
}

// langsmithKind returns langsmith.span.kind, lower-cased.
func langsmithKind(a attrs) (string, bool) {
	for i := range a {
		if k := a[i].key; len(k) == len(keyLangSmithKind) && k[0] == 'l' && k == keyLangSmithKind {
			return strings.ToLower(a[i].value), true
		}
	}
	return "", false
}

// wireLCMessage reads the message shapes LangChain serialises: OpenAI
// style (role, content, tool_calls), LangChain's own (type human / ai /
// tool / system, tool_calls with args) and the constructor form with the
// fields under kwargs.
type wireLCMessage struct {
	Role       rawJSON          `json:"role"`
	Type       rawJSON          `json:"type"`
	Content    rawJSON          `json:"content"`
	ToolCalls  []wireLCToolCall `json:"tool_calls"`
	ToolCallID rawJSON          `json:"tool_call_id"`
	ID         rawJSON          `json:"id"`
	Kwargs     *wireLCMessage   `json:"kwargs"`
	Message    *wireLCMessage   `json:"message"`
	Text       rawJSON          `json:"text"`
}

type wireLCToolCall struct {
	ID       rawJSON `json:"id"`
	Name     rawJSON `json:"name"`
	Args     rawJSON `json:"args"`
	Function *struct {
		Name      rawJSON `json:"name"`
		Arguments rawJSON `json:"arguments"`
	} `json:"function"`
}

// lcRole maps LangChain message types to chat roles.
func lcRole(w *wireLCMessage) string {
	if r := rawString(w.Role); r != "" {
		return r
	}
	if r := lcTypeRole(rawString(w.Type)); r != "" {
		return r
	}
	// constructor form: the class name is the last element of id
	last := ""
	gjson.Parse(string(w.ID)).ForEach(func(_, v gjson.Result) bool {
		last = v.Str
		return true
	})
	return lcTypeRole(last)
}

// lcTypeRole maps a LangChain message type or class name to a role.
func lcTypeRole(t string) string {
	switch t {
	case "human", "HumanMessage", "HumanMessageChunk":
		return "user"
	case "ai", "AIMessage", "AIMessageChunk":
		return "assistant"
	case "system", "SystemMessage":
		return "system"
	case "tool", "ToolMessage", "function":
		return "tool"
	}
	return ""
}

func lcMessage(w *wireLCMessage) message {
	if w.Kwargs != nil {
		inner := *w.Kwargs
		if len(inner.Role) == 0 && len(inner.Type) == 0 {
			inner.ID = w.ID
		}
		return lcMessage(&inner)
	}
	m := message{Role: lcRole(w)}
	if m.Role == "tool" {
		m.Parts = []part{{Type: partToolCallResponse, ID: strings.TrimSpace(rawString(w.ToolCallID)), Response: contentText(w.Content)}}
		return m
	}
	if t := contentText(w.Content); t != "" {
		m.Parts = append(m.Parts, part{Type: partText, Content: t})
	}
	for _, c := range w.ToolCalls {
		p := part{Type: partToolCall, ID: strings.TrimSpace(rawString(c.ID)), Name: rawString(c.Name), Arguments: rawString(c.Args)}
		if c.Function != nil {
			setStr(&p.Name, rawString(c.Function.Name))
			setStr(&p.Arguments, rawString(c.Function.Arguments))
		}
		m.Parts = append(m.Parts, p)
	}
	return m
}

// lcMessages decodes a message list; LangChain nests chat model inputs one
// level deeper (a batch of lists).
func lcMessages(raw rawJSON) []message {
	var items []rawJSON
	if json.Unmarshal([]byte(raw), &items) != nil {
		return nil
	}
	var out []message
	for _, it := range items {
		if strings.HasPrefix(strings.TrimSpace(string(it)), "[") {
			out = append(out, lcMessages(it)...)
			continue
		}
		var w wireLCMessage
		if json.Unmarshal([]byte(it), &w) != nil {
			continue
		}
		if m := lcMessage(&w); m.Role != "" || len(m.Parts) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// parseLangSmithInput decodes a run's inputs: {"messages": [...]}, a
// message list, or a single text input (input, question, query, prompt).
func parseLangSmithInput(raw, _ string) []message {
	t := strings.TrimSpace(raw)
	if t == "" {
		return nil
	}
	switch t[0] {
	case '[':
		return lcMessages(rawJSON(t))
	case '{':
		var obj struct {
			Messages rawJSON `json:"messages"`
			Input    rawJSON `json:"input"`
			Question rawJSON `json:"question"`
			Query    rawJSON `json:"query"`
			Prompt   rawJSON `json:"prompt"`
		}
		if json.Unmarshal([]byte(t), &obj) != nil {
			return nil
		}
		if len(obj.Messages) > 0 {
			return lcMessages(obj.Messages)
		}
		for _, v := range [...]rawJSON{obj.Input, obj.Question, obj.Query, obj.Prompt} {
			if txt := contentText(v); txt != "" {
				return textMessage("user", txt)
			}
		}
		return nil
	}
	return textMessage("user", jsonStringValue(raw))
}

// parseLangSmithOutput decodes a run's outputs: {"messages": [...]} (the
// last assistant message), {"generations": [[{text, message}]]}, {"output":
// text or message}, or plain text.
func parseLangSmithOutput(raw, _ string) []message {
	t := strings.TrimSpace(raw)
	if t == "" {
		return nil
	}
	if t[0] != '{' {
		if t[0] == '[' {
			return lastAssistant(lcMessages(rawJSON(t)))
		}
		return textMessage("assistant", jsonStringValue(raw))
	}
	var obj struct {
		Messages    rawJSON `json:"messages"`
		Generations [][]struct {
			Text    rawJSON        `json:"text"`
			Message *wireLCMessage `json:"message"`
		} `json:"generations"`
		Output rawJSON `json:"output"`
	}
	if json.Unmarshal([]byte(t), &obj) != nil {
		return nil
	}
	switch {
	case len(obj.Messages) > 0:
		return lastAssistant(lcMessages(obj.Messages))
	case len(obj.Generations) > 0 && len(obj.Generations[0]) > 0:
		g := obj.Generations[0][0]
		if g.Message != nil {
			m := lcMessage(g.Message)
			if m.Role == "" {
				m.Role = "assistant"
			}
			return []message{m}
		}
		return textMessage("assistant", rawString(g.Text))
	case len(obj.Output) > 0:
		o := strings.TrimSpace(string(obj.Output))
		if strings.HasPrefix(o, "{") {
			var w wireLCMessage
			if json.Unmarshal([]byte(o), &w) == nil {
				m := lcMessage(&w)
				m.Role = "assistant"
				return []message{m}
			}
		}
		return textMessage("assistant", contentText(rawJSON(o)))
	}
	return nil
}

func lastAssistant(ms []message) []message {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == "assistant" {
			return ms[i : i+1]
		}
	}
	return nil
}

// langsmithToolInput returns a tool run's arguments: its inputs object,
// with a LangChain {"input": "<json>"} wrapper unwrapped.
func langsmithToolInput(v string) string {
	t := strings.TrimSpace(v)
	if len(t) == 0 || t[0] != '{' {
		return unwrapJSONString(v)
	}
	var obj map[string]rawJSON
	if json.Unmarshal([]byte(t), &obj) == nil && len(obj) == 1 {
		if in, ok := obj["input"]; ok {
			if s := strings.TrimSpace(rawString(in)); strings.HasPrefix(s, "{") {
				return s
			}
		}
	}
	return v
}

// langsmithToolOutput returns a tool run's result, unwrapping {"output":
// value} and a serialised ToolMessage's content.
func langsmithToolOutput(v string) string {
	t := strings.TrimSpace(v)
	if len(t) == 0 || t[0] != '{' {
		return jsonStringValue(v)
	}
	var obj struct {
		Output rawJSON `json:"output"`
	}
	if json.Unmarshal([]byte(t), &obj) != nil || len(obj.Output) == 0 {
		return v
	}
	o := strings.TrimSpace(string(obj.Output))
	if strings.HasPrefix(o, "{") {
		var w wireLCMessage
		if json.Unmarshal([]byte(o), &w) == nil {
			if w.Kwargs != nil {
				w = *w.Kwargs
			}
			if len(w.Content) > 0 {
				return contentText(w.Content)
			}
		}
	}
	return rawString(rawJSON(o))
}
