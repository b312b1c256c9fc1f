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
	var base DecisionRecord
	base.Timestamp = NewTime(at)
	if t := e.Trajectory; t != nil {
		base.TraceID = t.TraceID
		base.SpanID = t.RootSpanID
		base.Service = t.Service
		base.Agent = t.Agent
		base.SessionID = t.SessionID
	}
	out := make([]DecisionRecord, len(e.Decisions))
	for i, d := range e.Decisions {
		r := base
		r.Metric, r.Judge, r.Outcome, r.Reason = d.Metric, d.Judge, d.Outcome, d.Reason
		out[i] = r
	}
	return out
}
