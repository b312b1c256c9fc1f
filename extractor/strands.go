package extractor

import (
	"encoding/json"
	"strings"
)

// Strands Agents (AWS) marks its spans with its own name in the provider
// slot and keeps message content in span events whose content attribute is
// a JSON list of Bedrock content blocks.
const (
	strandsProvider   = "strands-agents"
	strandsCycle      = "execute_event_loop_cycle"
	keyToolStatus     = "gen_ai.tool.status"
	strandsScopeStart = "strands"
)

// isStrands reports whether s was emitted by Strands Agents.
func isStrands(s *span) bool {
	if s.name == strandsCycle || strings.HasPrefix(s.scope, strandsScopeStart) {
		return true
	}
	if s.absent&absentStrandsProvider != 0 {
		return false
	}
	for i := range s.attrs {
		if k := s.attrs[i].key; k == keySystem || k == keyProvider {
			if s.attrs[i].value == strandsProvider {
				return true
			}
		}
	}
	return false
}

// decodeStrands reads Strands Agents spans: invoke_agent name →
// execute_event_loop_cycle → chat / execute_tool name, multi-agent
// invoke_swarm / invoke_graph, with content in per-message span events
// (gen_ai.user.message, gen_ai.choice, ... with Bedrock content blocks) or
// in gen_ai.client.inference.operation.details events. It runs after the
// GenAI decoder and replaces the event content it read, as the GenAI
// event form does not know content blocks.
func decodeStrands(s *span, evs []*event, f *spanFacts) bool {
	if !isStrands(s) {
		return false
	}
	a := s.attrs
	op := a.str(keyOperation)
	class := classifyGenAI(s)
	if op != "" && op != opInvokeAgent && strings.HasPrefix(op, "invoke_") {
		class = classRun // invoke_swarm, invoke_graph: multi-agent orchestrators
		setStr(&f.agent, a.str(keyAgentName))
	}
	f.setClass(class)
	claimConvention(f, "strands")
	if f.provider == strandsProvider {
		f.provider = "" // the framework, not the model provider
	}
	if class == classTool {
		strandsTool(a, evs, f)
		return true
	}
	// The GenAI decoder took the message events as plain per-message
	// events; their content attributes are content-block lists, decoded
	// here on first use.
	msgEvents := strandsMessageEvents(evs, f)
	if msgEvents == nil {
		return true // operation-details events: the GenAI decoder reads them
	}
	strandsContent(msgEvents, f)
	return true
}

// strandsTool reads a tool span: its status, and its arguments, call id
// and result from its message or operation-details events.
func strandsTool(a attrs, evs []*event, f *spanFacts) {
	if a.str(keyToolStatus) == "error" {
		setStr(&f.errorType, "tool_error")
	}
	for _, ev := range evs {
		switch ev.name {
		case evToolMessage:
			f.setArgs(ev.attrs.get("content"))
			setStr(&f.toolCallID, strings.TrimSpace(ev.attrs.str("id")))
		case evChoice:
			if v, ok := ev.attrs.get("message"); ok {
				setStr(&f.result, strandsResultText(v))
			}
		case evOperationDetails:
			strandsToolDetails(ev.attrs, f)
		}
	}
}

// strandsMessageEvents returns the per-message events of a span: those the
// GenAI decoder took, else those among evs; nil when there are none.
func strandsMessageEvents(evs []*event, f *spanFacts) []*event {
	for _, c := range [...]*content{f.input, f.output, f.instructions} {
		if c != nil && c.events != nil {
			return c.events // the same events: no second list
		}
	}
	var msgEvents []*event
	for _, ev := range evs {
		if isMessageEvent(ev.name) {
			msgEvents = append(msgEvents, ev)
		}
	}
	return msgEvents
}

// strandsContent reads the input, output, instructions and finish reasons
// of the per-message events msgEvents in Strands' content-block form.
func strandsContent(msgEvents []*event, f *spanFacts) {
	hasIn, hasOut, hasSys := strandsSides(msgEvents)
	setDecoded(f, &f.input, content{kind: contentMessages, events: msgEvents, eventParse: strandsEvents}, hasIn)
	setDecoded(f, &f.output, content{kind: contentMessages, events: msgEvents, output: true, eventParse: strandsEvents}, hasOut)
	switch {
	case !hasSys:
	case f.instructions == nil:
		// set only when there is text, so later decoders may fill it
		if sys := systemText(strandsEvents(msgEvents, sideSystem)); sys != "" {
			f.instructions = f.newContent(content{kind: contentInstructions, done: true, instructions: sys})
		}
	case f.instructions.events != nil:
		// the GenAI reading stands when the blocks hold no text
		*f.instructions = content{kind: contentInstructions, events: msgEvents, eventParse: strandsEvents, orGenAI: true}
	}
	if f.finishReasons == nil {
		f.finishReasons = choiceFinishReasons(msgEvents)
	}
}

// strandsSides reports whether the message events hold input, output
// (a choice) and system messages.
func strandsSides(msgEvents []*event) (in, out, sys bool) {
	for _, ev := range msgEvents {
		switch ev.name {
		case evChoice:
			out = true
		case evSystemMessage:
			in, sys = true, true
		default:
			in = true
		}
	}
	return in, out, sys
}

// choiceFinishReasons returns the finish reasons of the choice events, in
// order; nil when none has one.
func choiceFinishReasons(msgEvents []*event) []string {
	var out []string
	for _, ev := range msgEvents {
		if ev.name == evChoice {
			if r := ev.attrs.str("finish_reason"); r != "" {
				out = append(out, r)
			}
		}
	}
	return out
}

// setDecoded stores c in *dst when dst is empty or holds the per-message
// events the GenAI decoder took; ok says c has content.
func setDecoded(f *spanFacts, dst **content, c content, ok bool) {
	switch {
	case !ok:
	case *dst == nil:
		*dst = f.newContent(c)
	case (*dst).events != nil:
		**dst = c
	}
}

// strandsToolDetails reads a tool span's operation-details event: the
// tool_call part of its input and the tool_call_response of its output.
func strandsToolDetails(a attrs, f *spanFacts) {
	if v, ok := a.get(keyInputMessages); ok && !f.hasArgs {
		msgs, _ := parseMessages(v)
		for _, m := range msgs {
			for _, p := range m.Parts {
				if p.Type == partToolCall && !f.hasArgs {
					f.args, f.hasArgs = p.Arguments, true
					setStr(&f.toolCallID, p.ID)
				}
			}
		}
	}
	if v, ok := a.get(keyOutputMessages); ok && f.result == "" {
		msgs, _ := parseMessages(v)
		for _, m := range msgs {
			for _, p := range m.Parts {
				if p.Type == partToolCallResponse && f.result == "" {
					f.result = strandsResultText(p.Response)
				}
			}
		}
	}
}

// wireBlock is a Bedrock content block.
type wireBlock struct {
	Text    rawJSON `json:"text"`
	JSON    rawJSON `json:"json"`
	ToolUse *struct {
		ToolUseID rawJSON `json:"toolUseId"`
		Name      rawJSON `json:"name"`
		Input     rawJSON `json:"input"`
	} `json:"toolUse"`
	ToolResult *struct {
		ToolUseID rawJSON     `json:"toolUseId"`
		Status    rawJSON     `json:"status"`
		Content   []wireBlock `json:"content"`
	} `json:"toolResult"`
}

// strandsBlocks converts a content attribute: a JSON list of content
// blocks, or plain text.
func strandsBlocks(v string) []part {
	t := strings.TrimSpace(v)
	if t == "" {
		return nil
	}
	var bs []wireBlock
	if t[0] != '[' || json.Unmarshal([]byte(t), &bs) != nil {
		if t[0] == '"' {
			return textParts(jsonStringValue(t))
		}
		return textParts(v)
	}
	var out []part
	for i := range bs {
		b := &bs[i]
		switch {
		case b.ToolUse != nil:
			out = append(out, part{Type: partToolCall, ID: strings.TrimSpace(rawString(b.ToolUse.ToolUseID)), Name: rawString(b.ToolUse.Name), Arguments: rawString(b.ToolUse.Input)})
		case b.ToolResult != nil:
			out = append(out, part{Type: partToolCallResponse, ID: strings.TrimSpace(rawString(b.ToolResult.ToolUseID)), Response: blocksText(b.ToolResult.Content)})
		default:
			if txt := blockText(b); txt != "" {
				out = append(out, part{Type: partText, Content: txt})
			}
		}
	}
	return out
}

func blockText(b *wireBlock) string {
	if t := rawString(b.Text); t != "" {
		return t
	}
	return rawString(b.JSON)
}

func blocksText(bs []wireBlock) string {
	var sb strings.Builder
	for i := range bs {
		appendLine(&sb, blockText(&bs[i]))
	}
	return sb.String()
}

// strandsResultText is the text of a tool result: the text of its content
// blocks, or the value as it is.
func strandsResultText(v string) string {
	t := strings.TrimSpace(v)
	if t == "" || t[0] != '[' {
		return jsonStringValue(v)
	}
	var bs []wireBlock
	if json.Unmarshal([]byte(t), &bs) != nil {
		return v
	}
	if len(bs) == 1 && bs[0].ToolResult != nil {
		return blocksText(bs[0].ToolResult.Content)
	}
	return blocksText(bs)
}

// strandsEvents converts one side of Strands' per-message span events.
func strandsEvents(evs []*event, side eventSide) []message {
	var out []message
	for _, ev := range evs {
		switch ev.name {
		case evSystemMessage:
			if side != sideOutput {
				out = append(out, message{Role: "system", Parts: strandsBlocks(ev.attrs.str("content"))})
			}
		case evUserMessage, evAssistantMessage, evToolMessage:
			if side == sideInput {
				role := strings.TrimSuffix(strings.TrimPrefix(ev.name, "gen_ai."), ".message")
				m := message{Role: role, Parts: strandsBlocks(ev.attrs.str("content"))}
				if role == "user" && onlyToolResponses(m.Parts) {
					m.Role = "tool"
				}
				out = append(out, m)
			}
		case evChoice:
			if side == sideOutput {
				out = append(out, message{Role: "assistant", FinishReason: ev.attrs.str("finish_reason"), Parts: strandsBlocks(ev.attrs.str("message"))})
			}
		}
	}
	return out
}

func onlyToolResponses(ps []part) bool {
	for _, p := range ps {
		if p.Type != partToolCallResponse {
			return false
		}
	}
	return len(ps) > 0
}
