package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// buildInstance interprets one row. A row whose user_input is a list of
// messages is a Ragas multi-turn sample; any other row is read with the
// Vertex AI column names (a string user_input is the prompt, as in Ragas
// single-turn samples).
func buildInstance(o object) (*scorer.Instance, error) {
	in := &scorer.Instance{}
	for _, c := range columnReaders {
		v := o.get(c.name)
		if v == nil {
			continue
		}
		if err := c.read(in, v); err != nil {
			return nil, &Error{Column: c.name, Err: err}
		}
	}
	if err := readOtherColumns(in, o.cols); err != nil {
		return nil, err
	}
	return in, nil
}

// columnReader reads the value of one column with a meaning into an
// Instance.
type columnReader struct {
	name string
	read func(in *scorer.Instance, v json.RawMessage) error
}

// columnReaders are the columns with a meaning, read in this order: a
// later column may override or conflict with what an earlier one set.
var columnReaders = []columnReader{
	{ColUserInput, readUserInput},
	{ColPrompt, set(scorer.InPrompt, textValue, prompt)},
	{ColResponse, set(scorer.InResponse, textValue, func(in *scorer.Instance) *string { return &in.Response })},
	{ColReference, set(scorer.InReference, textValue, func(in *scorer.Instance) *string { return &in.Reference })},
	{ColContext, set(scorer.InContext, textValue, func(in *scorer.Instance) *string { return &in.Context })},
	{ColInstruction, set(scorer.InInstruction, textValue, func(in *scorer.Instance) *string { return &in.Instruction })},
	{ColPrediction, set(scorer.InPrediction, textValue, func(in *scorer.Instance) *string { return &in.Prediction })},
	{ColPredictedTrajectory, set(scorer.InPredictedTrajectory, trajectoryValue, func(in *scorer.Instance) *[]agentrun.ToolCall { return &in.PredictedTrajectory })},
	{ColReferenceTrajectory, set(scorer.InReferenceTrajectory, trajectoryValue, func(in *scorer.Instance) *[]agentrun.ToolCall { return &in.ReferenceTrajectory })},
	{ColReferenceToolCalls, readReferenceToolCalls},
	{ColReferenceTopics, set(scorer.InReferenceTopics, stringsValue, func(in *scorer.Instance) *[]string { return &in.ReferenceTopics })},
	{ColConversation, readConversation},
	{ColHistory, readConversation},
	{ColLatency, readLatency},
	{ColFailure, set(scorer.InFailure, boolValue, func(in *scorer.Instance) *bool { return &in.Failure })},
	{ColCaseID, readCaseID},
	{ColEvalID, readCaseID},
}

// known reports whether a column has a meaning of its own.
func known(name string) bool {
	return slices.ContainsFunc(columnReaders, func(c columnReader) bool { return c.name == name })
}

// set returns the reader of a column that value decodes into the field
// that field returns.
func set[T any](bit scorer.Inputs, value func(json.RawMessage) (T, error), field func(*scorer.Instance) *T) func(*scorer.Instance, json.RawMessage) error {
	return func(in *scorer.Instance, v json.RawMessage) error {
		x, err := value(v)
		if err != nil {
			return err
		}
		*field(in) = x
		in.Has |= bit
		return nil
	}
}

// readUserInput reads a Ragas user_input: a list of messages (a
// multi-turn sample) or the prompt.
func readUserInput(in *scorer.Instance, v json.RawMessage) error {
	if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '[' {
		return ragasConversation(in, v)
	}
	return set(scorer.InPrompt, textValue, prompt)(in, v)
}

func prompt(in *scorer.Instance) *string { return &in.Prompt }

// readReferenceToolCalls reads Ragas reference tool calls, the reference
// trajectory under another name.
func readReferenceToolCalls(in *scorer.Instance, v json.RawMessage) error {
	if in.Has&scorer.InReferenceTrajectory != 0 {
		return fmt.Errorf("given together with %q", ColReferenceTrajectory)
	}
	calls, err := callsValue(v)
	if err != nil {
		return err
	}
	in.ReferenceTrajectory = calls
	in.Has |= scorer.InReferenceTrajectory
	return nil
}

// readConversation reads a conversation or history column; a row gives
// at most one conversation.
func readConversation(in *scorer.Instance, v json.RawMessage) error {
	if in.Has&scorer.InConversation != 0 || in.Transcript != nil {
		return errors.New("a conversation is already given")
	}
	msgs, err := messagesValue(v)
	if err != nil {
		return err
	}
	in.Conversation = msgs
	in.Has |= scorer.InConversation
	return nil
}

func readLatency(in *scorer.Instance, v json.RawMessage) error {
	f, err := numberValue(v)
	if err != nil || f < 0 {
		return errors.New("must be a number of seconds >= 0")
	}
	in.Latency = time.Duration(f * float64(time.Second))
	in.Has |= scorer.InLatency
	return nil
}

// readCaseID reads a case_id or eval_id column; the first non-empty one
// wins.
func readCaseID(in *scorer.Instance, v json.RawMessage) error {
	if in.CaseID != "" {
		return nil
	}
	id, err := textValue(v)
	if err != nil {
		return err
	}
	in.CaseID = id
	return nil
}

// readOtherColumns keeps every other non-null column, decoded, in
// Instance.Columns.
func readOtherColumns(in *scorer.Instance, cols []Column) error {
	for _, c := range cols {
		if known(c.Name) || isNull(c.Value) {
			continue
		}
		var v any
		if err := json.Unmarshal(c.Value, &v); err != nil {
			return &Error{Column: c.Name, Err: fmt.Errorf("invalid JSON: %w", err)}
		}
		if in.Columns == nil {
			in.Columns = make(map[string]any)
		}
		in.Columns[c.Name] = v
	}
	return nil
}

// messagesValue reads a list of {role, content} messages.
func messagesValue(v json.RawMessage) ([]agentrun.Message, error) {
	return listValue(v, func(it json.RawMessage) (agentrun.Message, error) {
		var msg agentrun.Message
		m, err := fields(it)
		if err != nil {
			return msg, err
		}
		role := m["role"]
		if role == nil {
			role = m["type"]
		}
		if role != nil {
			if msg.Role, err = textValue(role); err != nil {
				return msg, fmt.Errorf("role %w", err)
			}
		}
		if c := m["content"]; c != nil && !isNull(c) {
			if msg.Content, err = textValue(c); err != nil {
				return msg, fmt.Errorf("content %w", err)
			}
		}
		return msg, nil
	})
}
