package dashboards

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/session"
)

// answerTurn is one turn of a seeded session: its outcome and how many of
// its tool calls errored.
type answerTurn struct {
	failed       bool
	errType      string
	calls, errs  int
	startMinutes int // after the session's start; turns are seeded out of order
}

type answerSession struct {
	id    string
	turns []answerTurn
}

// answerSessions: E and A fail at turn 2, C at turn 1 (and again at 3);
// B never fails but every tool call errors; D has no tool calls.
func answerSessions() []answerSession {
	return []answerSession{
		{"A", []answerTurn{{calls: 2}, {failed: true, errType: "timeout", calls: 2, errs: 1, startMinutes: 1}, {calls: 2, startMinutes: 2}}},
		{"B", []answerTurn{{calls: 1, errs: 1}, {calls: 1, errs: 1, startMinutes: 1}}},
		{"C", []answerTurn{{failed: true, errType: "budget_error", calls: 2}, {calls: 2, startMinutes: 1},
			{failed: true, errType: "timeout", calls: 2, startMinutes: 2}, {calls: 2, startMinutes: 3}}},
		{"D", []answerTurn{{}}},
		{"E", []answerTurn{{calls: 1, errs: 1}, {failed: true, errType: "timeout", calls: 1, startMinutes: 1}}},
	}
}

// trajectories are the session's runs as the sidecar receives them, last
// turn first.
func (s answerSession) trajectories(at time.Time) []*agentrun.Trajectory {
	var out []*agentrun.Trajectory
	for i, tn := range slices.Backward(s.turns) {
		start := at.Add(time.Duration(tn.startMinutes) * time.Minute)
		tr := &agentrun.Trajectory{TraceID: s.traceID(i), RootSpanID: s.traceID(i)[16:], Service: "budget-bot", ServiceVersion: "2.0",
			Agent: "planner", SessionID: s.id, Start: start, End: start.Add(2 * time.Second), Failed: tn.failed, ErrorType: tn.errType}
		for c := range tn.calls {
			call := agentrun.ToolCall{Name: "search", Start: start, End: start.Add(time.Second)}
			if c < tn.errs {
				call.Error = "boom"
			}
			tr.ToolCalls = append(tr.ToolCalls, call)
		}
		out = append(out, tr)
	}
	return out
}

func (s answerSession) traceID(turn int) string {
	return fmt.Sprintf("%016x%016x", s.id[0], turn+1)
}

// want is what the test expects of the session, counted from its turns:
// failed, the first failed turn (1-based, 0 for none), the tool error
// rate (-1 without tool calls) and the turns.
func (s answerSession) want() (failed float64, firstFailed int, rate float64, turns int) {
	calls, errs := 0, 0
	for i, tn := range s.turns {
		if tn.failed && firstFailed == 0 {
			failed, firstFailed = 1, i+1
		}
		calls += tn.calls
		errs += tn.errs
	}
	rate = -1
	if calls > 0 {
		rate = float64(errs) / float64(calls)
	}
	return failed, firstFailed, rate, len(s.turns)
}

// TestSessionPanelAnswers seeds the real ClickHouse with known sessions
// and checks the numbers and row order of the Sessions dashboard's
// panels, computed here from the sessions' turns.
func TestSessionPanelAnswers(t *testing.T) {
	at := time.Now().UTC().Add(-4 * time.Hour).Truncate(time.Minute)
	sessions := answerSessions()
	var evs []*scorer.Evaluation
	for k, s := range sessions {
		sat := at.Add(time.Duration(k) * 10 * time.Minute)
		ss := &agentrun.Session{ID: s.id, Service: "budget-bot", ServiceVersion: "2.0", Agent: "planner", CloseReason: agentrun.SessionClosedIdle}
		for _, tr := range s.trajectories(sat) {
			evs = append(evs, &scorer.Evaluation{Trajectory: tr})
			ss.Turns = append(ss.Turns, agentrun.TurnOf(tr))
		}
		// the assembler keeps turns in start order
		sort.SliceStable(ss.Turns, func(i, j int) bool { return ss.Turns[i].Start.Before(ss.Turns[j].Start) })
		if k == 0 {
			// A was scored once before its late turns arrived (from the
			// shared store: same first turn): that revision, on its first
			// turn alone, neither failed nor is shown.
			early := *ss
			early.Turns = ss.Turns[:1]
			evs = append(evs, session.Evaluate(&early))
			ss.Revision, ss.LateTurns = 2, len(ss.Turns)-1
		}
		evs = append(evs, session.Evaluate(ss))
	}
	conn, db := seedDB(t, session.Metrics(), evs)
	panel := func(t *testing.T, title, sessionID string) [][]any {
		t.Helper()
		tg, ok := renderedTargets(t, sessionsUID)[title]
		if !ok {
			t.Fatalf("no panel %q", title)
		}
		e := grafanaEnv{from: at.Add(-10 * time.Minute), to: at.Add(90 * time.Minute), interval: 10 * time.Minute,
			vars: map[string][]string{"database": {db}, "service": {"budget-bot"}, "agent": {"planner"}, "release": {"2.0"},
				"worst_sessions": {"10"}, "session_id": {sessionID}}}
		return queryRows(t, conn, e.expand(t, tg.RawSQL))
	}

	t.Run("metrics table", func(t *testing.T) {
		rows := queryRows(t, conn, "SELECT name, unit, direction, comparison, threshold FROM "+db+".metrics FINAL ORDER BY name")
		want := [][]any{
			{session.MetricDuration, "seconds", "lower_is_better", "", nil},
			{session.MetricFailed, "ratio", "lower_is_better", "<=", 0.0},
			{session.MetricToolErrorRate, "ratio", "lower_is_better", "<=", 0.0},
			{session.MetricTurns, "count", "none", "", nil},
		}
		if !reflect.DeepEqual(rows, want) {
			t.Errorf("metrics table %v, want %v", rows, want)
		}
	})

	t.Run("stats", func(t *testing.T) {
		failed := 0.0
		for _, s := range sessions {
			f, _, _, _ := s.want()
			failed += f
		}
		if rows := panel(t, "Sessions", ""); len(rows) != 1 || num(rows[0][0]) != float64(len(sessions)) {
			t.Errorf("Sessions = %v, want %d", rows, len(sessions))
		}
		if rows := panel(t, "Failed sessions", ""); len(rows) != 1 || !near(num(rows[0][0]), failed/float64(len(sessions))) {
			t.Errorf("Failed sessions = %v, want %v", rows, failed/float64(len(sessions)))
		}
	})

	t.Run("worst sessions", func(t *testing.T) {
		want := slices.Clone(sessions)
		// failed first, then the higher tool error rate (none last), then more turns
		sort.SliceStable(want, func(i, j int) bool {
			fi, _, ri, ni := want[i].want()
			fj, _, rj, nj := want[j].want()
			if fi != fj {
				return fi > fj
			}
			if ri != rj {
				return ri > rj
			}
			return ni > nj
		})
		rows := panel(t, "Worst sessions", "")
		if len(rows) != len(want) {
			t.Fatalf("%d rows, want %d: %v", len(rows), len(want), rows)
		}
		for i, s := range want {
			failed, first, rate, turns := s.want()
			row := rows[i]
			gotRate := num(row[5])
			if rate < 0 {
				rate = math.NaN() // NULL
			}
			if row[0] != s.id || num(row[2]) != float64(turns) || num(row[3]) != failed || num(row[4]) != float64(first) || !near(gotRate, rate) {
				t.Errorf("row %d = %v, want session %s turns %d failed %v first failed turn %d tool error rate %v", i, row, s.id, turns, failed, first, rate)
			}
		}
		if rows[0][0] != "E" {
			t.Errorf("the worst session is %v, want E (failed, half its tool calls errored)", rows[0][0])
		}
	})

	t.Run("session turns", func(t *testing.T) {
		s := sessions[0] // A, seeded last turn first
		rows := panel(t, "Session turns", s.id)
		if len(rows) != len(s.turns) {
			t.Fatalf("%d turns, want %d: %v", len(rows), len(s.turns), rows)
		}
		for i, tn := range s.turns {
			row := rows[i]
			if num(row[0]) != float64(i+1) || row[2] != s.traceID(i) || (num(row[4]) == 1) != tn.failed ||
				row[5] != tn.errType || num(row[6]) != float64(tn.calls) || num(row[7]) != float64(tn.errs) {
				t.Errorf("turn %d = %v, want trace %s %+v", i+1, row, s.traceID(i), tn)
			}
		}
	})

	t.Run("where sessions failed", func(t *testing.T) {
		byTurn, errTypes := map[int]int{}, map[int][]string{}
		for _, s := range sessions {
			if _, first, _, _ := s.want(); first > 0 {
				byTurn[first]++
				if et := s.turns[first-1].errType; !slices.Contains(errTypes[first], et) {
					errTypes[first] = append(errTypes[first], et)
				}
			}
		}
		rows := panel(t, "Where sessions failed", "")
		if len(rows) != len(byTurn) {
			t.Fatalf("%d rows, want %d: %v", len(rows), len(byTurn), rows)
		}
		for i, row := range rows {
			turn := int(num(row[0]))
			slices.Sort(errTypes[turn])
			if i > 0 && turn <= int(num(rows[i-1][0])) || num(row[1]) != float64(byTurn[turn]) || !slices.Equal(row[2].([]string), errTypes[turn]) {
				t.Errorf("row %d = %v, want turn %d: %d sessions, error types %v (turns ascending)", i, row, turn, byTurn[turn], errTypes[turn])
			}
		}
		if byTurn[2] != 2 || byTurn[1] != 1 {
			t.Errorf("dataset: first failed turns %v, want two sessions at turn 2, one at turn 1", byTurn)
		}
	})
}
