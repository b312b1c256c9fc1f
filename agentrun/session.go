package agentrun

import "time"

// Session is a conversation: the runs that share a conversation id
// (Trajectory.SessionID), each run one turn, in the order the turns
// started.
type Session struct {
	ID string
	// Service, ServiceVersion, Environment and Agent are those of the
	// first turn.
	Service, ServiceVersion, Environment, Agent string
	Turns                                       []Turn
	// CloseReason says why the session was closed: one of the
	// SessionClosed constants.
	CloseReason string
	// CaseID is the eval case the session's runs name (canary traffic),
	// when a reference was found for it.
	CaseID string
	// Revision counts the scorings of the session id: 1 the first time;
	// n+1 when turns arrive after the session was scored n times (late
	// turns) and it is scored again. LateTurns are the turns that arrived
	// since the previous scoring; 0 on revision 1.
	Revision, LateTurns int
}

// Why a session was closed.
const (
	SessionClosedIdle     = "idle"     // no new turn for the idle timeout
	SessionClosedMaxAge   = "max_age"  // open for the maximum age
	SessionClosedEvicted  = "evicted"  // closed early to stay within the count or byte bound
	SessionClosedShutdown = "shutdown" // open at shutdown or at the end of a replay
)

// Turn is one run of a session, reduced to what session metrics read.
type Turn struct {
	TraceID, SpanID string
	Agent           string
	Start, End      time.Time
	Input, Output   string
	Failed          bool
	ErrorType       string
	// ToolCalls and ToolErrors count the run's tool calls and those that
	// returned an error.
	ToolCalls, ToolErrors int
	// CaseID is the eval case the run names (its case-id attribute, on
	// canary traffic); empty otherwise.
	CaseID string
	// Calls are the run's tool calls in order and Replies its model
	// responses (see Replies): with Input and Output they are the turn's
	// Dialogue. Kept only when the session is judged as a dialogue or
	// scored as an eval case; nil otherwise.
	Calls   []ToolCall
	Replies []Reply
}

// Dialogue is the turn as messages (see the function Dialogue).
func (t *Turn) Dialogue() []Message { return Dialogue(t.Input, t.Replies, t.Calls, t.Output) }

// TurnOf reduces t to a session turn: its summary, without its calls and
// replies.
func TurnOf(t *Trajectory) Turn {
	tn := Turn{TraceID: t.TraceID, SpanID: t.RootSpanID, Agent: t.Agent, Start: t.Start, End: t.End,
		Input: t.Input, Output: t.Output, Failed: t.Failed, ErrorType: t.ErrorType, ToolCalls: len(t.ToolCalls)}
	for i := range t.ToolCalls {
		if t.ToolCalls[i].Error != "" {
			tn.ToolErrors++
		}
	}
	return tn
}

// Start is the start of the earliest turn with a known start.
func (s *Session) Start() time.Time {
	var st time.Time
	for i := range s.Turns {
		if t := s.Turns[i].Start; !t.IsZero() && (st.IsZero() || t.Before(st)) {
			st = t
		}
	}
	return st
}

// End is the end of the latest turn.
func (s *Session) End() time.Time {
	var end time.Time
	for i := range s.Turns {
		if t := s.Turns[i].End; t.After(end) {
			end = t
		}
	}
	return end
}

// TraceIDs returns the turns' trace ids in turn order.
func (s *Session) TraceIDs() []string {
	ids := make([]string, len(s.Turns))
	for i := range s.Turns {
		ids[i] = s.Turns[i].TraceID
	}
	return ids
}
