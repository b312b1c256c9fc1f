package adk

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// The rubric prompts, in the project's words, following ADK's
// rubric_based_final_response_quality_v1 and rubric_based_tool_use_quality_v1
// (metrics.md §6.6). The trusted part (task, output format and the
// configured rubrics as properties) is the system prompt; the run content
// is the user prompt, in tagged sections.

const rubricSystemHead = `You are an expert evaluator of AI agents. You are given what an agent saw and did while answering a user, and a list of properties. Decide, for each property, whether the agent's behaviour satisfies it.

How to work:
1. Read the developer instructions, the available tools and the user's main prompt to understand the task.
2. Read the response steps (the tool calls the agent made and their results)`

const rubricFinalTail = ` and the agent's final answer.
3. For each property, look for evidence in the sections you were given, then decide.
4. Judge only what the property asks. A property that does not apply to this interaction is answered "no" unless it says otherwise.`

const rubricToolTail = `.
3. For each property, look for evidence in the tool calls and their results, then decide. Judge the choice of tools, their order and their arguments.
4. Judge only what the property asks. A property that does not apply to this interaction is answered "no" unless it says otherwise.`

const rubricSystemFormat = `

Output format: for every property, in the order given, exactly these four lines, blocks separated by a blank line:
Property: <the property text, copied verbatim>
Evidence: <the relevant evidence from the sections>
Rationale: <why the evidence does or does not satisfy the property>
Verdict: <yes or no>

Properties:
`

// rubricSystem renders the system prompt of a rubric metric.
func rubricSystem(toolUse bool, rubrics []rubric) string {
	var b strings.Builder
	b.WriteString(rubricSystemHead)
	if toolUse {
		b.WriteString(rubricToolTail)
	} else {
		b.WriteString(rubricFinalTail)
	}
	b.WriteString(rubricSystemFormat)
	for i, r := range rubrics {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("*  " + r.Text)
	}
	return b.String()
}

// rubricPrompt renders the user prompt: <developer_instructions>,
// <available_tools>, <main_prompt>, <response_steps> and, for the final
// response metric, <final_answer>, each holding sanitized run content.
func rubricPrompt(toolUse bool, h header, wrap wrapFunc) string {
	instr := "None"
	if h.instructions != "" {
		instr = wrap(FieldInstruction, h.instructions)
	}
	tools := h.toolsText(wrap)
	steps := "No intermediate steps were taken."
	if len(h.calls) > 0 {
		steps = wrap(FieldToolCalls, responseSteps(h.calls))
	}
	var b strings.Builder
	section := func(tag, body string) {
		b.WriteString("<" + tag + ">\n" + body + "\n</" + tag + ">\n\n")
	}
	section("developer_instructions", instr)
	section("available_tools", tools)
	section("main_prompt", wrap(FieldPrompt, h.user))
	section("response_steps", steps)
	if !toolUse {
		section("final_answer", wrap(FieldResponse, h.response))
	}
	b.WriteString("Evaluate every property listed in your instructions against the sections above.")
	return b.String()
}

// responseSteps renders the tool calls as ADK's response steps:
// {"tool_calls_and_response": [{"step", "tool_call", "tool_response"}]},
// indent 2, with "None" for a call without a recorded outcome.
func responseSteps(calls []agentrun.ToolCall) string {
	type step struct {
		Step         int          `json:"step"`
		ToolCall     functionCall `json:"tool_call"`
		ToolResponse any          `json:"tool_response"`
	}
	steps := make([]step, len(calls))
	for i := range calls {
		steps[i] = step{Step: i, ToolCall: callJSON(&calls[i]), ToolResponse: "None"}
		if r := responseJSON(&calls[i]); r != nil {
			steps[i].ToolResponse = r
		}
	}
	return indented(map[string][]step{"tool_calls_and_response": steps})
}
