package adk

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// event is one step of an invocation as hallucinations_v1 sees it: a
// natural-language text part, tool calls with their outputs, or both.
type event struct {
	text  string
	calls []agentrun.ToolCall
}

// wrapFunc passes run content through the request's sanitizer.
type wrapFunc func(field, text string) string

// header is what the prompts show of an invocation besides its steps:
// the agent's instructions and tools, the user prompt, and for the rubric
// prompts the tool calls and the final response.
type header struct {
	agent        string
	instructions string
	tools        []agentrun.ToolDefinition
	user         string
	calls        []agentrun.ToolCall
	response     string
}

func newHeader(in *scorer.Instance, t turn) header {
	return header{agent: agentName(in), instructions: in.Instruction, tools: in.ToolDeclarations, user: t.user, calls: t.calls, response: t.response}
}

// toolsText is the declared tools as ADK's tool declaration block.
func (h header) toolsText(wrap wrapFunc) string {
	if len(h.tools) == 0 {
		return "Agent has no tools."
	}
	return wrap(FieldToolDeclarations, declarationsJSON(h.agent, h.tools))
}

// buildContext renders the grounding context of metrics.md §6.4.5, with
// every piece of run content passed through wrap:
//
//	Developer instructions:\n<agent>:\n<instructions>\n
//	User prompt:\n<user prompt>\n
//	Tool definitions:
//	<tool declaration JSON, or "Agent has no tools.">\n
//
// then, per prior event, its text, "tool_calls:" with the calls' JSON
// and "tool_outputs:" with their outputs' JSON (json.dumps, indent 2,
// ASCII only), all joined by newlines.
func buildContext(h header, events []event, wrap wrapFunc) string {
	dev := ""
	if h.instructions != "" {
		dev = wrap(FieldInstruction, h.agent+":\n"+h.instructions)
	}
	tools := h.toolsText(wrap)
	parts := []string{
		"Developer instructions:\n" + dev + "\n",
		"User prompt:\n" + wrap(FieldPrompt, h.user) + "\n",
		"Tool definitions:",
		tools + "\n",
	}
	for _, e := range events {
		if e.text != "" {
			parts = append(parts, wrap(FieldResponse, e.text)+"\n")
		}
		if len(e.calls) == 0 {
			continue
		}
		calls := make([]functionCall, 0, len(e.calls))
		var outs []*functionResponse
		for i := range e.calls {
			calls = append(calls, callJSON(&e.calls[i]))
			if r := responseJSON(&e.calls[i]); r != nil {
				outs = append(outs, r)
			}
		}
		parts = append(parts, "tool_calls:", wrap(FieldToolCalls, asciiOnly(indented(calls)))+"\n")
		if len(outs) > 0 {
			parts = append(parts, "tool_outputs:", wrap(FieldToolCalls, asciiOnly(indented(outs)))+"\n")
		}
	}
	return strings.Join(parts, "\n")
}

// callEvents turns an invocation's tool calls into events, one per call.
func callEvents(calls []agentrun.ToolCall) []event {
	out := make([]event, len(calls))
	for i := range calls {
		out[i] = event{calls: calls[i : i+1]}
	}
	return out
}

// step is one natural-language response to judge and the events before
// it that make up its context.
type step struct {
	response string
	prior    []event
}

// planSteps lists the responses hallucinations_v1 judges in one
// invocation: with intermediate true, every text part of the events, each
// with the events before it as context; then the final response (when not
// empty) with all events as context.
func planSteps(events []event, final string, intermediate bool) []step {
	var out []step
	if intermediate {
		for i, e := range events {
			if e.text != "" {
				out = append(out, step{response: e.text, prior: events[:i]})
			}
		}
	}
	if final != "" {
		out = append(out, step{response: final, prior: events})
	}
	return out
}
