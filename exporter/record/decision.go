package record

import (
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// DecisionRecord is one judge-ledger entry as written to decisions.jsonl:
// what happened to one judge metric on one run, and why.
type DecisionRecord struct {
	Timestamp Time   `json:"timestamp"`
	TraceID   string `json:"trace_id"`
	SpanID    string `json:"span_id"`
	Service   string `json:"service"`
	Agent     string `json:"agent"`
	SessionID string `json:"session_id"`
	Metric    string `json:"metric"`
	Judge     string `json:"judge"`
	Outcome   string `json:"outcome"`
	Reason    string `json:"reason"`
}

// DecisionsAt converts e's ledger decisions to records stamped with at.
func DecisionsAt(e *scorer.Evaluation, at time.Time) []DecisionRecord {
	if len(e.Decisions) == 0 {
		return nil
	}
	id := runOf(e)
	out := make([]DecisionRecord, len(e.Decisions))
	for i, d := range e.Decisions {
		out[i] = DecisionRecord{
			Timestamp: NewTime(at), TraceID: id.traceID, SpanID: id.spanID, Service: id.service,
			Agent: id.agent, SessionID: id.sessionID,
			Metric: d.Metric, Judge: d.Judge, Outcome: d.Outcome, Reason: d.Reason,
		}
	}
	return out
}

// runID is the identity of the run an evaluation belongs to, as score and
// decision records carry it.
type runID struct{ traceID, spanID, service, agent, sessionID string }

// runOf returns e's run identity, a session's identity (no trace or span
// id) for a session evaluation; empty without either.
func runOf(e *scorer.Evaluation) runID {
	if s := e.Session; s != nil {
		return runID{service: s.Service, agent: s.Agent, sessionID: s.ID}
	}
	t := e.Trajectory
	if t == nil {
		return runID{}
	}
	return runID{t.TraceID, t.RootSpanID, t.Service, t.Agent, t.SessionID}
}
