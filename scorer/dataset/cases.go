package dataset

import (
	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Case is the expected side of one evaluation case: an ADK eval case, or
// a dataset row used as a reference.
type Case struct {
	// ID is the case id (ADK eval_id, a dataset's case_id or eval_id).
	ID string
	// Turns are the expected invocations in order.
	Turns []Turn
	// Topics are the topics the agent should keep to in the case (a
	// dataset's reference_topics), for ragas_topic_adherence.
	Topics []string
}

// Turn is one expected invocation.
type Turn struct {
	// UserContent is the user's input for the turn.
	UserContent string
	// Response is the expected final response; HasResponse tells whether
	// one was given.
	Response    string
	HasResponse bool
	// ToolCalls are the expected tool calls; HasToolCalls tells whether
	// they were given (an empty list is an expectation of no tool use).
	ToolCalls    []agentrun.ToolCall
	HasToolCalls bool
}

// CasesFromRows turns dataset rows into reference cases: each row with a
// case id (case_id or eval_id column) or a prompt, and a reference,
// reference trajectory or reference topics, becomes a one-turn case. Rows
// without an expected side are skipped.
func CasesFromRows(rows []Row) []Case {
	var out []Case
	for _, r := range rows {
		in := r.Instance
		if in.CaseID == "" && in.Has&scorer.InPrompt == 0 {
			continue
		}
		t := Turn{
			UserContent:  in.Prompt,
			Response:     in.Reference,
			HasResponse:  in.Has&scorer.InReference != 0,
			ToolCalls:    in.ReferenceTrajectory,
			HasToolCalls: in.Has&scorer.InReferenceTrajectory != 0,
		}
		if !t.HasResponse && !t.HasToolCalls && len(in.ReferenceTopics) == 0 {
			continue
		}
		out = append(out, Case{ID: in.CaseID, Turns: []Turn{t}, Topics: in.ReferenceTopics})
	}
	return out
}
