package vertex

import (
	"encoding/json"
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// variable is an Instance field a template can use as an input variable.
type variable struct {
	field string        // sanitizer field
	need  scorer.Inputs // the Instance bit that must be present
	text  func(in *scorer.Instance) string
}

// lookupVariable returns the Instance field a template input variable
// names (Vertex dataset column names). Any other name is a dataset column
// (Instance.Columns), sent as field "context".
func lookupVariable(name string) (variable, bool) {
	v, ok := map[string]variable{
		"prompt":               {FieldPrompt, scorer.InPrompt, func(in *scorer.Instance) string { return in.Prompt }},
		"response":             {FieldResponse, scorer.InResponse, func(in *scorer.Instance) string { return in.Response }},
		"reference":            {FieldReference, scorer.InReference, func(in *scorer.Instance) string { return in.Reference }},
		"instruction":          {FieldInstruction, scorer.InInstruction, func(in *scorer.Instance) string { return in.Instruction }},
		"context":              {FieldContext, scorer.InContext, func(in *scorer.Instance) string { return in.Context }},
		"predicted_trajectory": {FieldToolCalls, scorer.InPredictedTrajectory, func(in *scorer.Instance) string { return toolCallsText(in.PredictedTrajectory) }},
		"reference_trajectory": {FieldReference, scorer.InReferenceTrajectory, func(in *scorer.Instance) string { return toolCallsText(in.ReferenceTrajectory) }},
		"conversation":         {FieldConversation, scorer.InConversation, func(in *scorer.Instance) string { return conversationText(in.Conversation) }},
		"tool_declarations":    {FieldToolDeclarations, scorer.InToolDeclarations, func(in *scorer.Instance) string { return toolDeclarationsText(in.ToolDeclarations) }},
	}[name]
	return v, ok
}

// inputVar is one input variable of a template and its heading in the
// prompt.
type inputVar struct {
	name    string
	heading string
	// optional variables are shown when the instance has a non-empty
	// value and are not required.
	optional bool
	// fallback, when set, is shown when the instance has no value.
	fallback string
}

// The input variables of the built-in metrics.
var (
	promptVar  = inputVar{name: "prompt", heading: "Prompt"}
	historyVar = inputVar{name: "conversation", heading: "Conversation History"}
	// toolResultsVar is the run's tool calls with their results, shown
	// only when the run called tools.
	toolResultsVar = inputVar{name: "predicted_trajectory", heading: "Tool Calls and Results", optional: true}
	toolCallsVar   = inputVar{name: "predicted_trajectory", heading: "Tool Calls and Results"}
	instructionVar = inputVar{name: "instruction", heading: "Developer Instruction", fallback: "No developer instruction was given."}
	toolDeclVar    = inputVar{name: "tool_declarations", heading: "Tool Declarations"}
	referenceVar   = inputVar{name: "reference", heading: "Reference Response"}
	contextVar     = inputVar{name: "context", heading: "Context"}
)

// needsOf returns the Instance bits the variables require (columns need
// none; they are checked when scoring).
func needsOf(vars []inputVar) scorer.Inputs {
	var n scorer.Inputs
	for _, v := range vars {
		if d, ok := lookupVariable(v.name); ok && !v.optional {
			n |= d.need
		}
	}
	return n
}

// resolve returns the prompt parts of vars for in. A dataset column the
// instance lacks makes the metric not applicable.
func resolve(in *scorer.Instance, vars []inputVar) ([]part, error) {
	parts := make([]part, 0, len(vars))
	for _, v := range vars {
		if d, ok := lookupVariable(v.name); ok {
			if v.optional && (in.Has&d.need == 0 || d.need == scorer.InPredictedTrajectory && len(in.PredictedTrajectory) == 0) {
				continue
			}
			text := d.text(in)
			if v.fallback != "" && (in.Has&d.need == 0 || text == "") {
				text = v.fallback
			}
			parts = append(parts, part{heading: v.heading, field: d.field, text: text})
			continue
		}
		val, ok := in.Columns[v.name]
		if !ok || val == nil {
			return nil, fmt.Errorf("column %q: %w", v.name, scorer.ErrNotApplicable)
		}
		parts = append(parts, part{heading: v.heading, field: FieldContext, text: columnText(val)})
	}
	return parts, nil
}

// columnText renders a dataset column value: strings as they are, other
// values as JSON.
func columnText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
