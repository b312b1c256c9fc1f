package extractor

import (
	"encoding/json"
	"strings"
)

// Pydantic AI keys (data format versions 2–6; Logfire exports the same
// spans).
const (
	pydanticScope          = "pydantic-ai"
	keyPydanticFinalResult = "final_result"
	keyPydanticAllMessages = "pydantic_ai.all_messages"
	keyPydanticFailure     = "pydantic_ai.tool.failure_stage"
	keyPydanticPrefix      = "pydantic_ai."
	keyPydanticAgentName   = "agent_name"          // v2
	keyPydanticToolArgs    = "tool_arguments"      // v2
	keyPydanticToolResp    = "tool_response"       // v2
	keyPydanticMsgEvents   = "all_messages_events" // v2
	keyAggregatedUsage     = "gen_ai.aggregated_usage."
)

// isPydantic reports whether s was emitted by Pydantic AI.
func isPydantic(s *span) bool {
	if s.scope == pydanticScope {
		return true
	}
	switch s.name {
	case "agent run", "running tool", "running output function":
		return true
	}
	if s.genaiOnly && s.absent&absentAggregatedUsage != 0 {
		return false // no key but gen_ai.*, and none of gen_ai.aggregated_usage.*
	}
	for i := range s.attrs {
		k := s.attrs[i].key
		if k == "" {
			continue
		}
		switch k[0] {
		case 'f':
			if k == keyPydanticFinalResult {
				return true
			}
		case 'p':
			if strings.HasPrefix(k, keyPydanticPrefix) {
				return true
			}
		case 't':
			if k == keyPydanticToolArgs || k == keyPydanticToolResp {
				return true
			}
		case 'a':
			if k == keyPydanticAgentName || k == keyPydanticMsgEvents {
				return true
			}
		case 'g':
			if strings.HasPrefix(k, keyAggregatedUsage) {
				return true
			}
		}
	}
	return false
}

// decodePydantic reads Pydantic AI spans: invoke_agent name (v3+) or
// agent run (v2) with final_result and the whole conversation, chat
// model spans (GenAI keys), and execute_tool name / running tool spans. It
// runs after the GenAI decoder.
func decodePydantic(s *span, _ []*event, f *spanFacts) bool {
	if !isPydantic(s) {
		return false
	}
	claimConvention(f, "pydantic-ai")
	a := s.attrs
	switch s.name {
	case "agent run":
		f.setClass(classRun)
	case "running tool", "running output function":
		f.setClass(classTool)
	}
	switch f.class {
	case classRun:
		setStr(&f.agent, a.str(keyPydanticAgentName))
		setStr(&f.agent, a.str(keyAgentName))
		f.parsedFrom(&f.input, a, keyPydanticAllMessages, nil)
		f.parsedFrom(&f.input, a, keyPydanticMsgEvents, parsePydanticEvents)
		f.parsedFrom(&f.output, a, keyPydanticFinalResult, parseFinalResult)
	case classTool:
		setStr(&f.toolName, a.str(keyToolName))
		if f.toolName == "" && s.name == "running output function" {
			f.toolName = keyPydanticFinalResult
		}
		setStr(&f.toolCallID, strings.TrimSpace(a.str(keyToolCallID)))
		f.setArgs(a.get(keyPydanticToolArgs))
		setStr(&f.result, a.str(keyPydanticToolResp))
		if stage := a.str(keyPydanticFailure); stage != "" {
			setStr(&f.errorType, "tool_failed_"+stage)
		}
	}
	return true
}

// parseFinalResult makes the run's final output message from final_result:
// the text, or the JSON of a structured output.
func parseFinalResult(raw, _ string) []message {
	t := jsonStringValue(raw)
	if t == "" {
		return nil
	}
	return []message{{Role: "assistant", Parts: textParts(t)}}
}

// parsePydanticEvents decodes the v2 all_messages_events attribute: a JSON
// list of GenAI events, each an object with an event.name key and the
// event's fields.
func parsePydanticEvents(raw, _ string) []message {
	var items []map[string]rawJSON
	if json.Unmarshal([]byte(raw), &items) != nil {
		return nil
	}
	evs := make([]*event, 0, len(items))
	for _, it := range items {
		ev := &event{name: rawString(it["event.name"])}
		for k, v := range it {
			if k == "event.name" {
				continue
			}
			ev.attrs = append(ev.attrs, attr{key: k, value: rawString(v)})
		}
		evs = append(evs, ev)
	}
	in, out, _ := eventMessages(evs)
	return append(in, out...)
}
