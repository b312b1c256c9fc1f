package clickhouse

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// TestSessionRowsKeyedBySession: a session's scores are evaluation rows
// keyed by session_id with no trace id; the same session exported twice
// collapses, a later session with the same id (closed at max_age before)
// keys apart, and the runs' own rows are untouched.
func TestSessionRowsKeyedBySession(t *testing.T) {
	s := newTestServer(t)
	h := startExporter(t, s.config(t))
	var evs []*scorer.Evaluation
	var turns []agentrun.Turn
	for i := range 3 { // testEvaluation 0..2 share session s-0
		ev := testEvaluation(i)
		evs = append(evs, ev)
		turns = append(turns, agentrun.TurnOf(ev.Trajectory))
	}
	first := &agentrun.Session{ID: "s-0", Service: "support-bot", Agent: "triage", Turns: turns[:2], CloseReason: agentrun.SessionClosedMaxAge}
	second := &agentrun.Session{ID: "s-0", Service: "support-bot", Agent: "triage", Turns: turns[2:], CloseReason: agentrun.SessionClosedIdle}
	evs = append(evs, session.Evaluate(first), session.Evaluate(first), session.Evaluate(second))
	for _, ev := range evs {
		if err := h.x.Export(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.x.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	sessionRows := len(session.Evaluate(first).Results) + len(session.Evaluate(second).Results)
	q := fmt.Sprintf("SELECT count() FROM %s.evaluations FINAL WHERE session_id = 's-0' AND trace_id = ''", s.db)
	waitFor(t, 30*time.Second, "session rows", func() bool { return s.count(t, q) >= sessionRows })
	if err := s.exec(context.Background(), "OPTIMIZE TABLE "+s.db+".evaluations FINAL"); err != nil {
		t.Fatal(err)
	}
	if got := s.count(t, q); got != sessionRows {
		t.Errorf("%d session rows, want %d (two sessions, the repeated one once)", got, sessionRows)
	}
	runRows := 0
	for _, ev := range evs[:3] {
		runRows += len(ev.Results)
	}
	if got := s.count(t, fmt.Sprintf("SELECT count() FROM %s.evaluations FINAL WHERE session_id = 's-0' AND trace_id != ''", s.db)); got != runRows {
		t.Errorf("%d run rows, want %d", got, runRows)
	}
	var turnsScore float64
	var runStart time.Time
	if err := s.conn.QueryRow(context.Background(), fmt.Sprintf(
		"SELECT score, run_start FROM %s.evaluations FINAL WHERE session_id = 's-0' AND metric = 'session_turns' ORDER BY run_start LIMIT 1", s.db)).Scan(&turnsScore, &runStart); err != nil {
		t.Fatal(err)
	}
	if turnsScore != 2 || !runStart.Equal(turns[0].Start.Truncate(time.Second)) {
		t.Errorf("first session: session_turns %v run_start %v, want 2 and %v", turnsScore, runStart, turns[0].Start)
	}
}

// TestSessionReaderSingleAndCluster reads idle sessions back, with every
// turn's tool calls, from a single server and from local and Distributed
// tables over Debian's test_shard_localhost cluster, whose nested
// subqueries over Distributed tables must be GLOBAL.
func TestSessionReaderSingleAndCluster(t *testing.T) {
	for _, cluster := range []string{"", "test_shard_localhost"} {
		t.Run("cluster="+cluster, func(t *testing.T) {
			s := newTestServer(t)
			cfg := s.config(t)
			cfg.Cluster, cfg.ClusterReplicated, cfg.ClusterDDL = cluster, false, false
			h := startExporter(t, cfg)
			for i := range 6 { // sessions s-0 and s-1, three runs each
				if err := h.x.Export(context.Background(), testEvaluation(i)); err != nil {
					t.Fatal(err)
				}
			}
			if err := h.x.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
			for _, tb := range []tableID{tTrajectories, tToolCalls} { // each table has its own sender
				waitFor(t, 30*time.Second, tb.String()+" rows", func() bool {
					return s.count(t, fmt.Sprintf("SELECT count() FROM %s.%s", s.db, tb)) == 6*rowsPerEvaluation[tb]
				})
			}
			r, err := NewSessionReader(cfg, "")
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got, err := r.IdleSessions(context.Background(), time.Now(), baseTime.Add(-time.Hour), 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d idle sessions, want 2", len(got))
			}
			for k, sess := range got {
				if sess.ID != fmt.Sprintf("s-%d", k) || len(sess.Turns) != 3 {
					t.Fatalf("session %d: %s with %d turns, want s-%d with 3", k, sess.ID, len(sess.Turns), k)
				}
				for i, tn := range sess.Turns {
					want := testEvaluation(3*k + i).Trajectory
					if tn.TraceID != want.TraceID || len(tn.Calls) != len(want.ToolCalls) || tn.Calls[1].Name != "refund" || tn.ToolErrors != 1 {
						t.Errorf("session %s turn %d: %+v", sess.ID, i, tn)
					}
				}
			}
		})
	}
}
