package celmetric

import (
	"encoding/json"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// variable is one name an expression can use: its CEL type, the Instance
// field it needs, and how to read it.
type variable struct {
	typ   *cel.Type
	needs scorer.Inputs
	get   func(in *scorer.Instance) any
}

var (
	callType = cel.MapType(cel.StringType, cel.DynType)
	msgType  = cel.MapType(cel.StringType, cel.StringType)
)

// variables are the names an expression sees:
//
//	prompt, response, reference, context, instruction, prediction  string
//	predicted_trajectory, reference_trajectory  list of {tool_name, tool_input, tool_output, error}
//	    (tool_input is the parsed argument object, or the raw text when it is not an object)
//	conversation        list of {role, content}
//	reference_topics    list of string
//	invocations         list of {user_content, response, reference, predicted_tool_calls, reference_tool_calls}
//	latency_seconds     double
//	failure             bool
//	case_id             string (never required)
//	columns             map of the dataset's other columns (never required)
func variables() map[string]variable {
	return map[string]variable{
		"prompt":      {cel.StringType, scorer.InPrompt, func(in *scorer.Instance) any { return in.Prompt }},
		"response":    {cel.StringType, scorer.InResponse, func(in *scorer.Instance) any { return in.Response }},
		"reference":   {cel.StringType, scorer.InReference, func(in *scorer.Instance) any { return in.Reference }},
		"context":     {cel.StringType, scorer.InContext, func(in *scorer.Instance) any { return in.Context }},
		"instruction": {cel.StringType, scorer.InInstruction, func(in *scorer.Instance) any { return in.Instruction }},
		"prediction":  {cel.StringType, scorer.InPrediction, func(in *scorer.Instance) any { return in.Prediction }},
		"predicted_trajectory": {cel.ListType(callType), scorer.InPredictedTrajectory, func(in *scorer.Instance) any {
			return calls(in.PredictedTrajectory)
		}},
		"reference_trajectory": {cel.ListType(callType), scorer.InReferenceTrajectory, func(in *scorer.Instance) any {
			return calls(in.ReferenceTrajectory)
		}},
		"conversation": {cel.ListType(msgType), scorer.InConversation, func(in *scorer.Instance) any {
			out := make([]map[string]string, len(in.Conversation))
			for i, m := range in.Conversation {
				out[i] = map[string]string{"role": m.Role, "content": m.Content}
			}
			return out
		}},
		"reference_topics": {cel.ListType(cel.StringType), scorer.InReferenceTopics, func(in *scorer.Instance) any {
			if in.ReferenceTopics == nil {
				return []string{}
			}
			return in.ReferenceTopics
		}},
		"invocations": {cel.ListType(callType), scorer.InInvocations, func(in *scorer.Instance) any {
			out := make([]map[string]any, len(in.Invocations))
			for i, v := range in.Invocations {
				out[i] = map[string]any{
					"user_content":         v.UserContent,
					"response":             v.Response,
					"reference":            v.Reference,
					"predicted_tool_calls": calls(v.PredictedToolCalls),
					"reference_tool_calls": calls(v.ReferenceToolCalls),
				}
			}
			return out
		}},
		"latency_seconds": {cel.DoubleType, scorer.InLatency, func(in *scorer.Instance) any { return in.Latency.Seconds() }},
		"failure":         {cel.BoolType, scorer.InFailure, func(in *scorer.Instance) any { return in.Failure }},
		"case_id":         {cel.StringType, 0, func(in *scorer.Instance) any { return in.CaseID }},
		"columns": {cel.MapType(cel.StringType, cel.DynType), 0, func(in *scorer.Instance) any {
			if in.Columns == nil {
				return map[string]any{}
			}
			return in.Columns
		}},
	}
}

// newEnv declares every variable, with the CEL string extensions
// (lowerAscii, split, trim, ...).
func newEnv() (*cel.Env, error) {
	vars := variables()
	opts := make([]cel.EnvOption, 0, len(vars)+1)
	opts = append(opts, ext.Strings())
	for _, n := range VariableNames() {
		opts = append(opts, cel.Variable(n, vars[n].typ))
	}
	return cel.NewEnv(opts...)
}

// lazy resolves variables on use, so an expression pays only for the
// fields it reads.
type lazy struct {
	in   *scorer.Instance
	vars map[string]variable
}

// ResolveName reads a variable.
func (l lazy) ResolveName(name string) (any, bool) {
	v, ok := l.vars[name]
	if !ok {
		return nil, false
	}
	return v.get(l.in), true
}

// Parent returns nil: there is no enclosing scope.
func (l lazy) Parent() interpreter.Activation { return nil }

// calls renders tool calls as CEL maps.
func calls(cs []agentrun.ToolCall) []map[string]any {
	out := make([]map[string]any, len(cs))
	for i, c := range cs {
		var input any = c.Arguments
		if c.ArgumentsValid {
			var m map[string]any
			if err := json.Unmarshal([]byte(c.Arguments), &m); err == nil {
				input = m
			}
		}
		out[i] = map[string]any{"tool_name": c.Name, "tool_input": input, "tool_output": c.Result, "error": c.Error}
	}
	return out
}
