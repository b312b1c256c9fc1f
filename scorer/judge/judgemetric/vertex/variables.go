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
	switch name {
	case "prompt":
		return variable{FieldPrompt, scorer.InPrompt, func(in *scorer.Instance) string { return in.Prompt }}, true
	case "response":
		return variable{FieldResponse, scorer.InResponse, func(in *scorer.Instance) string { return in.Response }}, true
	case "reference":
		return variable{FieldReference, scorer.InReference, func(in *scorer.Instance) string { return in.Reference }}, true
	case "instruction":
		return variable{FieldInstruction, scorer.InInstruction, func(in *scorer.Instance) string { return in.Instruction }}, true
	case "context":
		return variable{FieldContext, scorer.InContext, func(in *scorer.Instance) string { return in.Context }}, true
	case "predicted_trajectory":
		return variable{FieldToolCalls, scorer.InPredictedTrajectory, func(in *scorer.Instance) string { return toolCallsText(in.PredictedTrajectory) }}, true
	case "reference_trajectory":
		return variable{FieldReference, scorer.InReferenceTrajectory, func(in *scorer.Instance) string { return toolCallsText(in.ReferenceTrajectory) }}, true
	case "conversation":
		return variable{FieldConversation, scorer.InConversation, func(in *scorer.Instance) string { return conversationText(in.Conversation) }}, true
	case "tool_declarations":
		return variable{FieldToolDeclarations, scorer.InToolDeclarations, func(in *scorer.Instance) string { return toolDeclarationsText(in.ToolDeclarations) }}, true
	}
	return variable{}, false
}

// inputVar is one input variable of a template and its heading in the
// prompt.
type inputVar struct {
	name    string
	heading string
	// optional variables are shown when the instance has a non-empty
	// value and are not required.
	optional bool
}

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
			parts = append(parts, part{heading: v.heading, field: d.field, text: d.text(in)})
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
