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

// decodeOpenLLMetry reads OpenLLMetry (Traceloop) spans: workflow, agent
// and tool spans of the SDK decorators (traceloop.span.kind,
// traceloop.entity.*, inputs wrapped as {"args":[…],"kwargs":{…}}), and
// the legacy flattened LLM content gen_ai.prompt.<i>.* /
// gen_ai.completion.<i>.* (tool calls under tool_calls.<j>.*). The 0.55+
// LLM spans use the official gen_ai.* keys, which the GenAI decoder reads.
func decodeOpenLLMetry(s *span, _ []*event, f *spanFacts) bool {
	kind, ok := openllmetryKind(s)
	if !ok {
		return false
	}
	class := openllmetryClass(kind)
	f.setClass(class)
	a := s.attrs
	for _, k := range tlSessionKeys {
		setStr(&f.session, a.str(k))
	}
	switch class {
	case classRun:
		openllmetryRun(a, kind, f)
	case classTool:
		openllmetryTool(s, f)
	case classLLM:
		openllmetryLLM(a, f)
	}
	return true
}

// openllmetryKind returns the traceloop.span.kind of s, "" for an LLM
// span, and whether s is an OpenLLMetry span: one with a span kind, the
// legacy flattened LLM content or llm.request.type.
func openllmetryKind(s *span) (kind string, ok bool) {
	a := s.attrs
	if !s.genaiOnly { // else no traceloop.span.kind and no llm.request.type
		kind = a.str(keyTLSpanKind)
	}
	switch {
	case kind != "":
		return kind, true
	case s.absent&absentTLFlat == 0 && (hasFlat(a, keyTLPrompt) || hasFlat(a, keyTLCompletion)):
		return "", true // legacy flattened LLM content
	case s.genaiOnly:
		return "", false
	}
	_, ok = a.get(keyTLRequestType)
	return "", ok
}

// openllmetryClass is the class of a span of the given span kind.
func openllmetryClass(kind string) spanClass {
	switch kind {
	case "workflow", "agent":
		return classRun
	case "tool":
		return classTool
	case "":
		return classLLM
	}
	return classNone
}

// openllmetryRun reads a workflow or agent span: the agent's name and the
// run's input and output.
func openllmetryRun(a attrs, kind string, f *spanFacts) {
	if kind == "agent" {
		setStr(&f.agent, a.str(keyAgentName))
		setStr(&f.agent, a.str(keyTLEntityName))
	}
	f.parsedFrom(&f.input, a, keyTLEntityInput, parseInputValue)
	f.parsedFrom(&f.output, a, keyTLEntityOutput, parseOutputValue)
}

// openllmetryTool reads a tool span: the tool's name and call id, its
// arguments and its result.
func openllmetryTool(s *span, f *spanFacts) {
	a := s.attrs
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
}

// openllmetryLLM reads the legacy flattened content of an LLM span:
// prompt, completion (with its finish reasons) and functions.
func openllmetryLLM(a attrs, f *spanFacts) {
	if f.flatFrom(&f.input, contentMessages, a, keyTLPrompt) && f.instructions == nil {
		f.instructions = f.newContent(content{kind: contentInstructions, from: f.input})
	}
	if f.flatFrom(&f.output, contentMessages, a, keyTLCompletion) && f.finishReasons == nil {
		f.finishReasons = flatFinishReasons(a)
	}
	f.flatFrom(&f.toolDefs, contentToolDefs, a, keyTLFunctions)
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
