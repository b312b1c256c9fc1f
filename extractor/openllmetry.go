package extractor

import "strings"

// OpenLLMetry / Traceloop SDK attribute keys.
const (
	keyTLSpanKind     = "traceloop.span.kind"
	keyTLEntityName   = "traceloop.entity.name"
	keyTLEntityInput  = "traceloop.entity.input"
	keyTLEntityOutput = "traceloop.entity.output"
	keyTLAssociation  = "traceloop.association.properties."
	keyTLRequestType  = "llm.request.type"
	keyTLPrompt       = "gen_ai.prompt"
	keyTLCompletion   = "gen_ai.completion"
	keyTLFunctions    = "llm.request.functions"
)

// openllmetryDecoder reads OpenLLMetry (Traceloop) spans: workflow, agent
// and tool spans of the SDK decorators (traceloop.span.kind,
// traceloop.entity.*, inputs wrapped as {"args":[…],"kwargs":{…}}), and
// the legacy flattened LLM content gen_ai.prompt.<i>.* /
// gen_ai.completion.<i>.* (tool calls under tool_calls.<j>.*). The 0.55+
// LLM spans use the official gen_ai.* keys, which the GenAI decoder reads.
type openllmetryDecoder struct{}

func (openllmetryDecoder) name() string { return "openllmetry" }

// keepOpenLLMetryAttr is the kept-key policy of the OpenLLMetry decoder
// (its gen_ai.* and llm.* keys are kept by the GenAI and OpenInference
// policies).
func keepOpenLLMetryAttr(key string) bool {
	return len(key) > 0 && key[0] == 't' && strings.HasPrefix(key, "traceloop.")
}

// association session keys, in priority order.
var tlSessionKeys = [...]string{
	keyTLAssociation + "session_id", keyTLAssociation + "conversation_id",
	keyTLAssociation + "thread_id", keyTLAssociation + "chat_id",
}

func (openllmetryDecoder) decode(s *span, _ []*event, f *spanFacts) bool {
	a := s.attrs
	kind := ""
	if !s.genaiOnly { // else no traceloop.span.kind and no llm.request.type
		kind = a.str(keyTLSpanKind)
	}
	legacy := kind == "" && s.absent&absentTLFlat == 0 && (hasFlat(a, keyTLPrompt) || hasFlat(a, keyTLCompletion))
	if kind == "" && !legacy {
		if s.genaiOnly {
			return false
		}
		if _, ok := a.get(keyTLRequestType); !ok {
			return false
		}
	}
	class := classNone
	switch kind {
	case "workflow", "agent":
		class = classRun
	case "tool":
		class = classTool
	case "":
		class = classLLM
	}
	if f.class == classNone {
		f.class = class
	}
	for _, k := range tlSessionKeys {
		setStr(&f.session, a.str(k))
	}
	switch class {
	case classRun:
		if kind == "agent" {
			setStr(&f.agent, a.str(keyAgentName))
			setStr(&f.agent, a.str(keyTLEntityName))
		}
		if v, ok := a.get(keyTLEntityInput); ok && f.input == nil {
			f.input = f.newContent(content{kind: contentMessages, raw: v, parse: parseInputValue})
		}
		if v, ok := a.get(keyTLEntityOutput); ok && f.output == nil {
			f.output = f.newContent(content{kind: contentMessages, raw: v, parse: parseOutputValue})
		}
	case classTool:
		setStr(&f.toolName, a.str(keyToolName))
		setStr(&f.toolName, a.str(keyTLEntityName))
		if f.toolName == "" {
			f.toolName = strings.TrimSuffix(s.name, ".tool")
		}
		if id := strings.TrimSpace(a.str(keyToolCallID)); id != "<not specified>" {
			setStr(&f.toolCallID, id)
		}
		if !f.hasArgs {
			if v, ok := a.get(keyToolArguments); ok {
				f.args, f.hasArgs = unwrapCallArgs(unwrapJSONString(v)), true
			} else if v, ok := a.get(keyTLEntityInput); ok {
				f.args, f.hasArgs = unwrapCallArgs(v), true
			}
		}
		setStr(&f.result, a.str(keyToolResult))
		setStr(&f.result, a.str(keyTLEntityOutput))
	case classLLM:
		if f.input == nil && hasFlat(a, keyTLPrompt) {
			f.input = f.newContent(content{kind: contentMessages, raw: keyTLPrompt, attrs: a})
			if f.instructions == nil {
				f.instructions = f.newContent(content{kind: contentInstructions, from: f.input})
			}
		}
		if f.output == nil && hasFlat(a, keyTLCompletion) {
			f.output = f.newContent(content{kind: contentMessages, raw: keyTLCompletion, attrs: a})
			if f.finishReasons == nil {
				f.finishReasons = flatFinishReasons(a)
			}
		}
		if f.toolDefs == nil && hasFlat(a, keyTLFunctions) {
			f.toolDefs = f.newContent(content{kind: contentToolDefs, raw: keyTLFunctions, attrs: a})
		}
	}
	return true
}

// flatFinishReasons reads gen_ai.completion.<i>.finish_reason, in
// attribute order.
func flatFinishReasons(a attrs) []string {
	var out []string
	for i := range a {
		k := a[i].key
		if strings.HasSuffix(k, ".finish_reason") && strings.HasPrefix(k, keyTLCompletion+".") && a[i].value != "" {
			out = append(out, a[i].value)
		}
	}
	return out
}
