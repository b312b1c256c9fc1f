// Package scorer turns trajectories into scores: the Instance (one evaluation
// row, shared by online scoring and offline datasets), the Metric interface,
// the registry that builds metrics from config, and the Engine that runs them
// with a bounded queue and workers.
package scorer

import (
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Instance is one evaluation row, shaped like a Vertex AI evaluation dataset
// row so that online scoring and offline datasets share one engine.
type Instance struct {
	Prompt      string
	Response    string
	Reference   string
	Context     string
	Instruction string

	PredictedTrajectory []agentrun.ToolCall
	ReferenceTrajectory []agentrun.ToolCall
	IntermediateEvents  []agentrun.Step
	ToolDeclarations    []agentrun.ToolDefinition
	Conversation        []agentrun.Message // earlier turns, before Prompt
	ReferenceTopics     []string

	// Transcript is the whole dialogue in order when the source gives it
	// as messages (a Ragas multi-turn sample): earlier turns, Prompt,
	// each assistant message with its tool calls, the tool outputs and
	// Response. Nil for online runs, whose dialogue is rebuilt from the
	// fields above.
	Transcript []agentrun.Message

	// Prediction is a model's tool-call output as Vertex's tool-call
	// metrics read it: JSON {"content": ..., "tool_calls": [{"name", "arguments"}]}.
	// Those metrics compare it with Reference.
	Prediction string

	// Invocations are the turns of a multi-turn case, for metrics that
	// score per invocation and average (Google ADK). A single-turn run has
	// one invocation built from the fields above.
	Invocations []Invocation

	// CaseID identifies the evaluation case (dataset row, ADK eval case, or
	// the case-id attribute of canary traffic).
	CaseID string
	// Columns holds a dataset row's other columns, for custom metrics.
	Columns map[string]any

	Latency time.Duration
	Failure bool

	// Has records which optional fields were actually observed, so that a
	// metric can tell "absent" from "empty" (an empty trajectory is a valid
	// observation; a missing response is not).
	Has Inputs

	// Trajectory is the run this instance was built from; nil for offline
	// dataset rows.
	Trajectory *agentrun.Trajectory
	// Session is the conversation this instance was built from (its
	// earlier turns in Conversation, its last turn's request and answer
	// in Prompt and Response); nil for a run.
	Session *agentrun.Session

	// derived holds values metrics derive from the fields above (see
	// Derive).
	derived derived
}

// Invocation is one user turn of a case and the agent's answer to it.
type Invocation struct {
	ID                 string
	UserContent        string
	Response           string              // the agent's final response to the turn
	Reference          string              // the expected final response, when known
	PredictedToolCalls []agentrun.ToolCall // tool calls the agent made in the turn
	ReferenceToolCalls []agentrun.ToolCall // expected tool calls, when known
	HasReference       bool                // the expected side was given (possibly empty)
}

// Inputs is a set of Instance fields a metric needs.
type Inputs uint32

// Instance fields, as an Inputs bit set.
const (
	InPrompt Inputs = 1 << iota
	InResponse
	InReference
	InContext
	InInstruction
	InPredictedTrajectory
	InReferenceTrajectory
	InIntermediateEvents
	InToolDeclarations
	InConversation
	InReferenceTopics
	InLatency
	InFailure
	InPrediction
	InInvocations
)

// Missing returns the subset of need that in lacks.
func (in *Instance) Missing(need Inputs) Inputs { return need &^ in.Has }

// FromTrajectory builds the Instance for an online run. The trajectory's
// tool calls are always an observation (an empty list means "no tool used");
// prompt, response and instruction are present when recorded.
func FromTrajectory(t *agentrun.Trajectory) *Instance {
	in := &Instance{
		Prompt:              t.Input,
		Response:            t.Output,
		Instruction:         t.Instructions,
		PredictedTrajectory: t.ToolCalls,
		IntermediateEvents:  t.Steps,
		ToolDeclarations:    t.ToolDefs,
		Conversation:        t.History,
		Latency:             t.Latency(),
		Failure:             t.Failed,
		Trajectory:          t,
		Has:                 InPredictedTrajectory | InIntermediateEvents | InFailure,
	}
	if !t.Start.IsZero() && !t.End.IsZero() {
		in.Has |= InLatency
	}
	if t.Input != "" {
		in.Has |= InPrompt
	}
	if t.Output != "" {
		in.Has |= InResponse
	}
	if t.Instructions != "" {
		in.Has |= InInstruction
	}
	if len(t.ToolDefs) > 0 {
		in.Has |= InToolDeclarations
	}
	if len(t.History) > 0 {
		in.Has |= InConversation
	}
	return in
}

// inputNames name the Inputs bits, in bit order, as dataset columns do.
var inputNames = [...]string{"prompt", "response", "reference", "context", "instruction",
	"predicted_trajectory", "reference_trajectory", "intermediate_events", "tool_declarations",
	"conversation", "reference_topics", "latency", "failure", "prediction", "invocations"}

// String names the fields of the set, comma-separated.
func (i Inputs) String() string {
	var out []string
	for b, name := range inputNames {
		if i&(1<<b) != 0 {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// ModelText is the text one model call of a run produced, with the number
// of the run's tool calls made before it: the calls it could draw on are
// PredictedTrajectory[:CallsBefore].
type ModelText struct {
	Text        string
	CallsBefore int
}

// IntermediateResponses returns the natural-language texts the run's
// model calls produced before the final response, in execution order (the
// run's replies, agentrun.Replies). The last model text is left out when it
// is the final response. Nil when the run recorded no steps or no model
// text.
func (in *Instance) IntermediateResponses() []ModelText {
	if in.Trajectory == nil {
		return nil
	}
	var out []ModelText
	calls := 0
	for _, r := range agentrun.Replies(in.Trajectory) {
		if r.Text != "" {
			out = append(out, ModelText{Text: r.Text, CallsBefore: min(calls, len(in.PredictedTrajectory))})
		}
		for _, i := range r.Calls {
			calls = max(calls, i+1)
		}
	}
	if n := len(out); n > 0 && strings.TrimSpace(out[n-1].Text) == strings.TrimSpace(in.Response) {
		out = out[:n-1]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
