package session

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// lagStore returns the same idle sessions at every poll, as a store does
// until the session scores are inserted; err, when set, fails the poll.
type lagStore struct {
	sessions      []agentrun.Session
	err           error
	idle, since   time.Time
	limit, called int
}

func (s *lagStore) IdleSessions(_ context.Context, idleBefore, since time.Time, limit int) ([]*agentrun.Session, error) {
	s.called++
	s.idle, s.since, s.limit = idleBefore, since, limit
	if s.err != nil {
		return nil, s.err
	}
	out := make([]*agentrun.Session, len(s.sessions))
	for i := range s.sessions {
		cp := s.sessions[i]
		out[i] = &cp
	}
	return out, nil
}

func TestStoreSessionsScoredOnce(t *testing.T) {
	st := &lagStore{sessions: []agentrun.Session{
		{ID: "a", Turns: []agentrun.Turn{{TraceID: "1"}, {TraceID: "2"}}},
		{ID: "b", Turns: []agentrun.Turn{{TraceID: "3"}}},
	}}
	sink := &collect{}
	cfg := testConfig()
	a, err := New(cfg, telemetry.Settings{}, sink, Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// runs given to Export are ignored: the store is the source
	if err := a.Export(ctx, run("a", "9", 0)); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := a.poll(ctx, t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if len(sink.evs) != 2 {
		t.Fatalf("%d sessions exported over three polls, want 2 (each once)", len(sink.evs))
	}
	if got := sink.sessions()["a"]; len(got.Turns) != 2 || got.CloseReason != agentrun.SessionClosedIdle {
		t.Errorf("session a: %d turns, closed %q", len(got.Turns), got.CloseReason)
	}
	if !st.idle.Equal(t0.Add(2*time.Second-cfg.IdleTimeout)) || !st.since.Equal(t0.Add(2*time.Second-cfg.MaxAge)) || st.limit != cfg.MaxSessions {
		t.Errorf("store asked for idle before %v since %v limit %d", st.idle, st.since, st.limit)
	}
	// a session read back with more turns (late turns) is scored again
	st.sessions[1].Turns = append(st.sessions[1].Turns, agentrun.Turn{TraceID: "4"})
	st.sessions[1].Revision, st.sessions[1].LateTurns = 2, 1
	if err := a.poll(ctx, t0.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	if len(sink.evs) != 3 || sink.evs[2].Session.ID != "b" || sink.evs[2].Session.Revision != 2 {
		t.Fatalf("%d sessions exported after b's late turn, want 3, the last b's revision 2", len(sink.evs))
	}
	if got := testutil.ToFloat64(a.m.lateTurns); got != 1 {
		t.Errorf("late turns = %v, want 1", got)
	}
	// long after, a session still read back (its score never landed) is scored again
	if err := a.poll(ctx, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if len(sink.evs) != 5 {
		t.Errorf("%d sessions exported after the memory of scored sessions expired, want 5", len(sink.evs))
	}
	st.err = errors.New("connection refused")
	if err := a.poll(ctx, t0.Add(2*time.Hour)); err == nil {
		t.Error("a failed read is not reported")
	}
	if got := testutil.ToFloat64(a.m.storeErrors); got != 1 {
		t.Errorf("store errors = %v, want 1", got)
	}
}
