package extractor

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// OpenInference (Arize/Phoenix) attribute keys.
const (
	keyOISpanKind       = "openinference.span.kind"
	keyOIInput          = "input.value"
	keyOIOutput         = "output.value"
	keyOIModel          = "llm.model_name"
	keyOIResponseModel  = "llm.response.model_name"
	keyOIProvider       = "llm.provider"
	keyOISystem         = "llm.system"
	keyOIPromptTokens   = "llm.token_count.prompt"
	keyOICompletionToks = "llm.token_count.completion"
	keyOIFinishReason   = "llm.finish_reason"
	keyOIInputMessages  = "llm.input_messages"
	keyOIOutputMessages = "llm.output_messages"
	keyOITools          = "llm.tools"
	keyOIToolName       = "tool.name"
	keyOIToolID         = "tool.id"
	keyOIAgentName      = "agent.name"
	keyOIGraphNode      = "graph.node.id"
	keyOISession        = "session.id"
	keyOIUser           = "user.id"
)

// keepOpenInferenceAttr is the kept-key policy of the OpenInference
// decoder.
func keepOpenInferenceAttr(key string) bool {
	if key == "" {
		return false
	}
	switch key[0] {
	case 'a', 'g', 'i', 'o', 's', 't', 'u':
	case 'l':
		// everything but the large request echo
		return strings.HasPrefix(key, "llm.") && key != "llm.invocation_parameters"
	default:
		return false
	}
	switch key {
	case keyOISpanKind, keyOIInput, keyOIOutput, keyOIToolName, keyOIToolID,
		keyOIAgentName, keyOIGraphNode, keyOISession, keyOIUser:
		return true
	}
	return false
}

// openinferenceValuesRead reports whether the decoder reads the
// input.value and output.value of a span with attributes m: those of a run
// or a tool span. Every other span's values (an LLM span's request echo, a
// nested chain's whole graph state) are not kept.
func openinferenceValuesRead(m pcommon.Map, root bool) bool {
	v, ok := m.Get(keyOISpanKind)
	if !ok {
		return false
	}
	switch openinferenceKindClass(v.Str(), root) {
	case classRun, classTool:
		return true
	}
	return false
}

// decodeOpenInference reads OpenInference spans: the span kind in
// openinference.span.kind, flattened llm.input_messages / llm.output_messages
// on LLM spans, arguments and result in input.value / output.value on TOOL
// spans, the run's input and output in input.value / output.value of its
// AGENT or root CHAIN span, and session.id.
func decodeOpenInference(s *span, _ []*event, f *spanFacts) bool {
	if s.genaiOnly {
		return false // no openinference.span.kind
	}
	a := s.attrs
	kind := a.str(keyOISpanKind)
	if kind == "" {
		return false
	}
	class := openinferenceClass(s, kind)
	f.setClass(class)
	setStr(&f.session, a.str(keyOISession))
	switch class {
	case classRun:
		openinferenceRun(s, kind, f)
	case classLLM:
		openinferenceLLM(a, f)
	case classTool:
		openinferenceTool(s, f)
	}
	return true
}

// openinferenceClass is the class of a span of the given span kind: an
// AGENT span or a root CHAIN span is a run.
func openinferenceClass(s *span, kind string) spanClass {
	return openinferenceKindClass(kind, !s.hasParent())
}

// openinferenceKindClass is openinferenceClass by span kind and whether
// the span is a root.
func openinferenceKindClass(kind string, root bool) spanClass {
	switch kind {
	case "AGENT":
		return classRun
	case "CHAIN":
		if root {
			return classRun
		}
	case "LLM":
		return classLLM
	case "TOOL":
		return classTool
	}
	return classNone
}

// openinferenceRun reads an AGENT or root CHAIN span: the agent's name and
// the run's input and output.
func openinferenceRun(s *span, kind string, f *spanFacts) {
	a := s.attrs
	setStr(&f.agent, a.str(keyOIAgentName))
	setStr(&f.agent, a.str(keyOIGraphNode))
	// a root AGENT span is named after the SDK's trace ("Agent
	// workflow"); a root CHAIN after the graph, which is the agent
	if f.agent == "" && (kind == "CHAIN" || s.hasParent()) {
		f.agent = s.name
	}
	f.parsedFrom(&f.input, a, keyOIInput, parseInputValue)
	f.parsedFrom(&f.output, a, keyOIOutput, parseOutputValue)
}

// openinferenceLLM reads an LLM span: model, provider, token counts,
// finish reason and the flattened messages and tools.
func openinferenceLLM(a attrs, f *spanFacts) {
	setStr(&f.model, a.str(keyOIResponseModel))
	setStr(&f.model, a.str(keyOIModel))
	setStr(&f.provider, a.str(keyOIProvider))
	setStr(&f.provider, a.str(keyOISystem))
	f.setTokens(intAttr(a, keyOIPromptTokens), intAttr(a, keyOICompletionToks))
	f.setFinishReason(a.str(keyOIFinishReason))
	openinferenceMessages(a, f)
}

// openinferenceMessages reads the flattened llm.input_messages,
// llm.output_messages and llm.tools of an LLM span.
func openinferenceMessages(a attrs, f *spanFacts) {
	f.flatFrom(&f.input, contentMessages, a, keyOIInputMessages)
	f.flatFrom(&f.output, contentMessages, a, keyOIOutputMessages)
	if f.instructions == nil && f.input != nil && f.input.attrs != nil {
		f.instructions = f.newContent(content{kind: contentInstructions, raw: keyOIInputMessages, attrs: a})
	}
	f.flatFrom(&f.toolDefs, contentToolDefs, a, keyOITools)
}

// openinferenceTool reads a TOOL span: the tool's name and call id, its
// arguments in input.value and its result in output.value.
func openinferenceTool(s *span, f *spanFacts) {
	a := s.attrs
	setStr(&f.toolName, a.str(keyOIToolName))
	setStr(&f.toolName, s.name)
	setStr(&f.toolCallID, strings.TrimSpace(a.str(keyOIToolID)))
	f.setArgs(a.get(keyOIInput))
	if f.result == "" {
		f.result = unwrapToolOutput(a.str(keyOIOutput))
	}
}
