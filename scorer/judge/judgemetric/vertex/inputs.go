package vertex

import (
	"encoding/json"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/truncate"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// part is one piece of run content placed in a judge prompt under a
// heading; text is raw and goes through the sanitizer as field.
type part struct {
	heading string
	field   string
	text    string
}

// renderParts renders parts as "### heading" sections, each body passed
// through s.Untrusted.
func renderParts(b *strings.Builder, s judge.Sanitizer, parts []part) {
	for i, p := range parts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("### ")
		b.WriteString(p.heading)
		b.WriteString("\n")
		b.WriteString(s.Untrusted(p.field, p.text))
	}
}

// renderInputs renders the user-input section and the responses the way
// the Vertex templates lay them out ("# User Inputs and AI-generated
// Response"): one response under its own heading, two as "### Response A"
// and "### Response B" (pairwise). Either may be empty.
func renderInputs(s judge.Sanitizer, inputs []part, responses ...part) string {
	title := "AI-generated Response"
	if len(responses) > 1 {
		title += "s"
	}
	var b strings.Builder
	b.WriteString("# User Inputs and " + title)
	if len(inputs) > 0 {
		b.WriteString("\n## User Inputs\n")
		renderParts(&b, s, inputs)
	}
	if len(responses) > 0 {
		b.WriteString("\n\n## " + title + "\n")
	}
	if len(responses) == 1 {
		b.WriteString(s.Untrusted(responses[0].field, responses[0].text))
	} else {
		renderParts(&b, s, responses)
	}
	return b.String()
}

// toolCallView is the JSON shape of a tool call shown to the judge.
type toolCallView struct {
	Name      string `json:"name"`
	Arguments any    `json:"arguments"`
	Result    string `json:"result,omitempty"`
	Error     string `json:"error,omitempty"`
}

// toolCallsText renders tool calls with their arguments (as JSON when
// they are valid JSON, else as the raw string), results and errors.
func toolCallsText(calls []agentrun.ToolCall) string {
	if len(calls) == 0 {
		return "No tool calls were made."
	}
	views := make([]toolCallView, len(calls))
	for i, c := range calls {
		views[i] = toolCallView{Name: c.Name, Arguments: jsonOrText(c.Arguments), Result: c.Result, Error: c.Error}
	}
	return judgemetric.JSON(views, "  ")
}

// toolDeclView is the JSON shape of a tool declaration shown to the judge.
type toolDeclView struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Parameters  any    `json:"parameters,omitempty"`
}

// toolDeclarationsText renders the declared tools.
func toolDeclarationsText(decls []agentrun.ToolDefinition) string {
	if len(decls) == 0 {
		return "The agent has no tools."
	}
	views := make([]toolDeclView, len(decls))
	for i, d := range decls {
		views[i] = toolDeclView{Name: d.Name, Description: d.Description}
		if d.Parameters != "" {
			views[i].Parameters = jsonOrText(d.Parameters)
		}
	}
	return judgemetric.JSON(views, "  ")
}

// jsonOrText is s as JSON when it is valid JSON, else as a string.
func jsonOrText(s string) any {
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	return s
}

// conversationText renders the dialogue history as a JSON list of
// {role, content} turns.
func conversationText(msgs []agentrun.Message) string {
	// JSON, not "role: content" lines: a line starting with "assistant:"
	// or "system:" is a reserved marker the sanitizer must defuse, and
	// every conversation would be flagged.
	type turn struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	turns := make([]turn, len(msgs))
	for i, m := range msgs {
		role := m.Role
		if role == "" {
			role = "unknown"
		}
		turns[i] = turn{Role: role, Content: m.Content}
	}
	return judgemetric.JSON(turns, "  ")
}

// maxExplanation caps Result.Explanation.
const maxExplanation = 2048

// capText cuts s to at most n bytes on a rune boundary.
func capText(s string, n int) string { return truncate.String(s, n) }

// normalize is the key rubric and claim texts are matched by: a leading
// list bullet ("- " as the prompts list them, or "* ") removed, inner
// whitespace collapsed, lower-cased.
func normalize(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") {
		s = s[2:]
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
