// Package vertex implements the Vertex AI Gen AI Evaluation judge metrics
// on the shared judge-metric base (package judgemetric): the pointwise
// metric prompt templates, their pairwise forms and custom pointwise
// metrics (one judge call that rates the response on the template's
// scale), and the managed rubric metrics (the passing rate of rubric
// verdicts, or for the claim-based ones the share of claims that are
// supported); docs/judge.md lists them.
//
// The definitions follow the project's metric notes (metrics.md §7) and
// the Vertex AI managed-metric documentation; every prompt text is the
// project's own wording. Register adds every metric id to a registry.
//
// All run content (prompt, response, reference, tool calls and results,
// instructions, history, rubrics written by a judge) reaches a prompt
// only through the request's judge.Sanitizer, under the field names
// below; the system prompt holds only trusted template text.
package vertex

// Sanitizer field names: the field argument of judge.Sanitizer.Untrusted,
// used by the per-metric allow-lists.
const (
	FieldPrompt           = "prompt"            // the user input of the run
	FieldResponse         = "response"          // the agent's final answer
	FieldReference        = "reference"         // expected answer or expected trajectory
	FieldInstruction      = "instruction"       // the developer (system) instruction
	FieldToolDeclarations = "tool_declarations" // declared tools and their schemas
	FieldToolCalls        = "tool_calls"        // tool calls with arguments and results
	FieldConversation     = "conversation"      // earlier turns of the dialogue
	FieldContext          = "context"           // grounding context and dataset columns
	FieldRubrics          = "rubrics"           // rubrics written by a judge
)
