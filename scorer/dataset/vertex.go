package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Column names with a meaning. Every other column goes to
// Instance.Columns.
const (
	ColPrompt              = "prompt"
	ColResponse            = "response"
	ColReference           = "reference"
	ColContext             = "context"
	ColInstruction         = "instruction"
	ColPrediction          = "prediction"
	ColPredictedTrajectory = "predicted_trajectory"
	ColReferenceTrajectory = "reference_trajectory"
	ColReferenceToolCalls  = "reference_tool_calls"
	ColReferenceTopics     = "reference_topics"
	ColConversation        = "conversation"
	ColHistory             = "history"
	ColUserInput           = "user_input"
	ColLatency             = "latency_in_seconds"
	ColFailure             = "failure"
	ColCaseID              = "case_id"
	ColEvalID              = "eval_id"
)

// textColumns maps the text columns to their Instance field and Has bit.
func textColumns(in *scorer.Instance) []struct {
	name string
	dst  *string
	bit  scorer.Inputs
} {
	return []struct {
		name string
		dst  *string
		bit  scorer.Inputs
	}{
		{ColPrompt, &in.Prompt, scorer.InPrompt},
		{ColResponse, &in.Response, scorer.InResponse},
		{ColReference, &in.Reference, scorer.InReference},
		{ColContext, &in.Context, scorer.InContext},
		{ColInstruction, &in.Instruction, scorer.InInstruction},
		{ColPrediction, &in.Prediction, scorer.InPrediction},
	}
}

// buildInstance interprets one row. A row whose user_input is a list of
// messages is a Ragas multi-turn sample; any other row is read with the
// Vertex AI column names (a string user_input is the prompt, as in Ragas
// single-turn samples).
func buildInstance(o object) (*scorer.Instance, error) {
	in := &scorer.Instance{}
	if ui := o.get(ColUserInput); ui != nil {
		if t := bytes.TrimSpace(ui); len(t) > 0 && t[0] == '[' {
			if err := ragasConversation(in, ui); err != nil {
				return nil, &Error{Column: ColUserInput, Err: err}
			}
		} else {
			s, err := textValue(ui)
			if err != nil {
				return nil, &Error{Column: ColUserInput, Err: err}
			}
			in.Prompt = s
			in.Has |= scorer.InPrompt
		}
	}
	for _, c := range textColumns(in) {
		v := o.get(c.name)
		if v == nil {
			continue
		}
		s, err := textValue(v)
		if err != nil {
			return nil, &Error{Column: c.name, Err: err}
		}
		*c.dst = s
		in.Has |= c.bit
	}
	var err error
	if v := o.get(ColPredictedTrajectory); v != nil {
		if in.PredictedTrajectory, err = trajectoryValue(v); err != nil {
			return nil, &Error{Column: ColPredictedTrajectory, Err: err}
		}
		in.Has |= scorer.InPredictedTrajectory
	}
	if v := o.get(ColReferenceTrajectory); v != nil {
		if in.ReferenceTrajectory, err = trajectoryValue(v); err != nil {
			return nil, &Error{Column: ColReferenceTrajectory, Err: err}
		}
		in.Has |= scorer.InReferenceTrajectory
	}
	if v := o.get(ColReferenceToolCalls); v != nil {
		if in.Has&scorer.InReferenceTrajectory != 0 {
			return nil, &Error{Column: ColReferenceToolCalls, Err: fmt.Errorf("given together with %q", ColReferenceTrajectory)}
		}
		if in.ReferenceTrajectory, err = callsValue(v); err != nil {
			return nil, &Error{Column: ColReferenceToolCalls, Err: err}
		}
		in.Has |= scorer.InReferenceTrajectory
	}
	if v := o.get(ColReferenceTopics); v != nil {
		if in.ReferenceTopics, err = stringsValue(v); err != nil {
			return nil, &Error{Column: ColReferenceTopics, Err: err}
		}
		in.Has |= scorer.InReferenceTopics
	}
	for _, name := range []string{ColConversation, ColHistory} {
		v := o.get(name)
		if v == nil {
			continue
		}
		if in.Has&scorer.InConversation != 0 {
			return nil, &Error{Column: name, Err: fmt.Errorf("a conversation is already given")}
		}
		if in.Conversation, err = messagesValue(v); err != nil {
			return nil, &Error{Column: name, Err: err}
		}
		in.Has |= scorer.InConversation
	}
	if v := o.get(ColLatency); v != nil {
		f, err := numberValue(v)
		if err != nil || f < 0 {
			return nil, &Error{Column: ColLatency, Err: fmt.Errorf("must be a number of seconds >= 0")}
		}
		in.Latency = time.Duration(f * float64(time.Second))
		in.Has |= scorer.InLatency
	}
	if v := o.get(ColFailure); v != nil {
		if in.Failure, err = boolValue(v); err != nil {
			return nil, &Error{Column: ColFailure, Err: err}
		}
		in.Has |= scorer.InFailure
	}
	for _, name := range []string{ColCaseID, ColEvalID} {
		if v := o.get(name); v != nil && in.CaseID == "" {
			if in.CaseID, err = textValue(v); err != nil {
				return nil, &Error{Column: name, Err: err}
			}
		}
	}
	for _, c := range o.cols {
		if known(c.Name) || isNull(c.Value) {
			continue
		}
		var v any
		if err := json.Unmarshal(c.Value, &v); err != nil {
			return nil, &Error{Column: c.Name, Err: fmt.Errorf("invalid JSON: %w", err)}
		}
		if in.Columns == nil {
			in.Columns = make(map[string]any)
		}
		in.Columns[c.Name] = v
	}
	return in, nil
}

// known reports whether a column has a meaning of its own.
func known(name string) bool {
	switch name {
	case ColPrompt, ColResponse, ColReference, ColContext, ColInstruction, ColPrediction,
		ColPredictedTrajectory, ColReferenceTrajectory, ColReferenceToolCalls, ColReferenceTopics,
		ColConversation, ColHistory, ColUserInput, ColLatency, ColFailure, ColCaseID, ColEvalID:
		return true
	}
	return false
}

// messagesValue reads a list of {role, content} messages.
func messagesValue(v json.RawMessage) ([]agentrun.Message, error) {
	items, err := arrayValue(v)
	if err != nil {
		return nil, err
	}
	out := make([]agentrun.Message, 0, len(items))
	for i, it := range items {
		m, err := fields(it)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		var msg agentrun.Message
		role := m["role"]
		if role == nil {
			role = m["type"]
		}
		if role != nil {
			if msg.Role, err = textValue(role); err != nil {
				return nil, fmt.Errorf("item %d: role %w", i, err)
			}
		}
		if c := m["content"]; c != nil && !isNull(c) {
			if msg.Content, err = textValue(c); err != nil {
				return nil, fmt.Errorf("item %d: content %w", i, err)
			}
		}
		out = append(out, msg)
	}
	return out, nil
}
