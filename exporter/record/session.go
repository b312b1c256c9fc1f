package record

import (
	"github.com/evalsidecar/evalsidecar/agentrun"
)

// SessionRecord is one closed conversation as written to sessions.jsonl:
// its identity, its turns (the runs, by trace id, in start order) and why
// it closed. Its scores are in scores.jsonl with scope "session".
type SessionRecord struct {
	SessionID       string  `json:"session_id"`
	Service         string  `json:"service"`
	ServiceVersion  string  `json:"service_version"`
	Environment     string  `json:"environment"`
	Agent           string  `json:"agent"`
	Start           Time    `json:"start"`
	End             Time    `json:"end"`
	DurationSeconds float64 `json:"duration_seconds"`
	TurnCount       int     `json:"turn_count"`
	FailedTurns     int     `json:"failed_turns"`
	CloseReason     string  `json:"close_reason"`
	CaseID          string  `json:"case_id"`
	// Revision is 1 for a session's first scoring, n+1 when it is scored
	// again for turns that arrived after its n-th (LateTurns of them).
	Revision  int          `json:"revision"`
	LateTurns int          `json:"late_turns"`
	Turns     []TurnRecord `json:"turns"`
}

// TurnRecord is one run of a SessionRecord; its content is in
// trajectories.jsonl under the same trace id.
type TurnRecord struct {
	TraceID    string `json:"trace_id"`
	SpanID     string `json:"span_id"`
	Agent      string `json:"agent"`
	Start      Time   `json:"start"`
	End        Time   `json:"end"`
	Failed     bool   `json:"failed"`
	ErrorType  string `json:"error_type"`
	ToolCalls  int    `json:"tool_calls"`
	ToolErrors int    `json:"tool_errors"`
}

// Session converts s to its record.
func Session(s *agentrun.Session) SessionRecord {
	start, end := s.Start(), s.End()
	r := SessionRecord{SessionID: s.ID, Service: s.Service, ServiceVersion: s.ServiceVersion,
		Environment: s.Environment, Agent: s.Agent, Start: NewTime(start), End: NewTime(end),
		TurnCount: len(s.Turns), CloseReason: s.CloseReason, CaseID: s.CaseID, Revision: max(s.Revision, 1), LateTurns: s.LateTurns,
		Turns: make([]TurnRecord, len(s.Turns))}
	if !start.IsZero() && end.After(start) {
		r.DurationSeconds = end.Sub(start).Seconds()
	}
	for i := range s.Turns {
		t := &s.Turns[i]
		if t.Failed {
			r.FailedTurns++
		}
		r.Turns[i] = TurnRecord{TraceID: t.TraceID, SpanID: t.SpanID, Agent: t.Agent, Start: NewTime(t.Start),
			End: NewTime(t.End), Failed: t.Failed, ErrorType: t.ErrorType, ToolCalls: t.ToolCalls, ToolErrors: t.ToolErrors}
	}
	return r
}

// AppendJSON appends the record as a JSON object, as encoding/json writes
// it without HTML escaping (like every record of the JSON lines files). A
// session is one line per conversation, so it is encoded by reflection.
func (r *SessionRecord) AppendJSON(b []byte) ([]byte, error) { return appendEncoded(b, r) }
