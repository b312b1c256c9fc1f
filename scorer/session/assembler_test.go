package session

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// collect is a sink that keeps the session evaluations it receives.
type collect struct {
	mu  sync.Mutex
	evs []*scorer.Evaluation
}

func (c *collect) Export(_ context.Context, e *scorer.Evaluation) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evs = append(c.evs, e)
	return nil
}

func (c *collect) sessions() map[string]*agentrun.Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]*agentrun.Session{}
	for _, e := range c.evs {
		out[e.Session.ID] = e.Session
	}
	return out
}

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// run is a scored run of session sid started at offset off.
func run(sid, trace string, off time.Duration) *scorer.Evaluation {
	return &scorer.Evaluation{Trajectory: &agentrun.Trajectory{TraceID: trace, SessionID: sid, Agent: "a", Service: "svc",
		Start: t0.Add(off), End: t0.Add(off + time.Second), Input: "q " + trace, Output: "a " + trace}}
}

// fixture is an assembler on a settable clock with a collecting sink.
type fixture struct {
	a    *Assembler
	sink *collect
	reg  *prometheus.Registry
	now  time.Time
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	f := &fixture{sink: &collect{}, reg: prometheus.NewRegistry(), now: t0}
	a, err := New(cfg, telemetry.Settings{Registerer: f.reg}, f.sink, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.clock = func() time.Time { return f.now }
	f.a = a
	return f
}

func (f *fixture) export(t *testing.T, e *scorer.Evaluation) {
	t.Helper()
	if err := f.a.Export(context.Background(), e); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) closed(reason string) float64 {
	return testutil.ToFloat64(f.a.m.closed.WithLabelValues(reason))
}

func testConfig() Config {
	c := DefaultConfig()
	c.Enabled = true
	c.IdleTimeout = time.Minute
	c.MaxAge = 10 * time.Minute
	return c
}

func TestSessionClosesWhenIdle(t *testing.T) {
	f := newFixture(t, testConfig())
	f.export(t, run("s1", "t1", 0))
	f.now = f.now.Add(50 * time.Second)
	f.export(t, run("s1", "t2", 50*time.Second))
	f.export(t, run("s2", "t3", 50*time.Second))
	f.export(t, run("", "t4", 0)) // no conversation id: not a session
	f.now = f.now.Add(59 * time.Second)
	if err := f.a.Cut(context.Background(), f.now, false); err != nil {
		t.Fatal(err)
	}
	if len(f.sink.evs) != 0 {
		t.Fatalf("closed %d sessions before the idle timeout", len(f.sink.evs))
	}
	f.now = f.now.Add(time.Second)
	if err := f.a.Cut(context.Background(), f.now, false); err != nil {
		t.Fatal(err)
	}
	got := f.sink.sessions()
	if len(got) != 2 {
		t.Fatalf("closed %d sessions, want 2", len(got))
	}
	if ids := got["s1"].TraceIDs(); fmt.Sprint(ids) != "[t1 t2]" {
		t.Errorf("s1 turns = %v, want [t1 t2]", ids)
	}
	if r := got["s1"].CloseReason; r != agentrun.SessionClosedIdle {
		t.Errorf("close reason = %q", r)
	}
	if f.closed(agentrun.SessionClosedIdle) != 2 {
		t.Errorf("closed{idle} = %v, want 2", f.closed(agentrun.SessionClosedIdle))
	}
	if n, b := f.a.stats(); n != 0 || b != 0 {
		t.Errorf("after closing: %d open, %d bytes", n, b)
	}
}

func TestSessionClosesAtMaxAge(t *testing.T) {
	f := newFixture(t, testConfig())
	for i := range 12 { // a turn every 50s keeps it from idling
		f.export(t, run("s1", fmt.Sprintf("t%02d", i), time.Duration(i)*50*time.Second))
		f.now = f.now.Add(50 * time.Second)
		if err := f.a.Cut(context.Background(), f.now, false); err != nil {
			t.Fatal(err)
		}
	}
	// at 600s the session reached max_age with the turns t00..t11
	if len(f.sink.evs) != 1 || f.sink.evs[0].Session.CloseReason != agentrun.SessionClosedMaxAge {
		t.Fatalf("evaluations %d, want one closed at max_age", len(f.sink.evs))
	}
	if n := len(f.sink.evs[0].Session.Turns); n != 12 {
		t.Errorf("%d turns, want 12", n)
	}
	f.export(t, run("s1", "t12", 600*time.Second)) // a new session with the same id
	if err := f.a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(f.sink.evs) != 2 || f.sink.evs[1].Session.CloseReason != agentrun.SessionClosedShutdown || len(f.sink.evs[1].Session.Turns) != 1 {
		t.Fatalf("after shutdown: %d evaluations, want the second session of one turn closed at shutdown", len(f.sink.evs))
	}
}

func TestSessionEvictions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      func(*Config)
		sessions int
		evicted  int
	}{
		{"max_sessions", func(c *Config) { c.MaxSessions = 3 }, 5, 2},
		// each session of one turn is about 384+326+len(ids)+len(texts) = 732 bytes
		{"max_bytes", func(c *Config) { c.MaxBytes = 3 * 800 }, 5, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig()
			tc.cfg(&cfg)
			f := newFixture(t, cfg)
			for i := range tc.sessions {
				f.export(t, run(fmt.Sprintf("s%d", i), fmt.Sprintf("t%d", i), time.Duration(i)*time.Second))
				f.now = f.now.Add(time.Second)
			}
			if len(f.sink.evs) != tc.evicted {
				t.Fatalf("%d sessions closed early, want %d", len(f.sink.evs), tc.evicted)
			}
			for i, e := range f.sink.evs { // the oldest first
				if want := fmt.Sprintf("s%d", i); e.Session.ID != want || e.Session.CloseReason != agentrun.SessionClosedEvicted {
					t.Errorf("closed early: %s (%s), want %s (evicted)", e.Session.ID, e.Session.CloseReason, want)
				}
			}
			if got := f.closed(agentrun.SessionClosedEvicted); got != float64(tc.evicted) {
				t.Errorf("closed{evicted} = %v", got)
			}
			n, b := f.a.stats()
			if n != tc.sessions-tc.evicted || b > cfg.MaxBytes {
				t.Errorf("open %d (%d bytes), want %d within %d bytes", n, b, tc.sessions-tc.evicted, cfg.MaxBytes)
			}
			want := fmt.Sprintf("# HELP %s Sessions open (waiting for more turns).\n# TYPE %s gauge\n%s %d\n", MetricOpen, MetricOpen, MetricOpen, n)
			if err := testutil.GatherAndCompare(f.reg, strings.NewReader(want), MetricOpen); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestSessionIgnoresWhatIsNotATurn(t *testing.T) {
	f := newFixture(t, testConfig())
	follow := run("s1", "t1", 0)
	follow.FollowUp = true
	for _, e := range []*scorer.Evaluation{nil, {}, run("", "t0", 0), follow, Evaluate(&agentrun.Session{ID: "s1"})} {
		f.export(t, e)
	}
	if n, _ := f.a.stats(); n != 0 {
		t.Fatalf("%d sessions opened by evaluations that are not turns", n)
	}
}

func TestSessionTurnsInStartOrder(t *testing.T) {
	f := newFixture(t, testConfig())
	// runs are scored in the order their traces complete, not as they started
	first := run("s", "a", time.Second)
	first.Trajectory.Agent = "triage"
	for _, e := range []*scorer.Evaluation{run("s", "b", 2*time.Second), run("s", "c", 3*time.Second), first} {
		f.export(t, e)
	}
	if err := f.a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ids := f.sink.evs[0].Session.TraceIDs(); fmt.Sprint(ids) != "[a b c]" {
		t.Errorf("turns %v, want [a b c]", ids)
	}
	if a := f.sink.evs[0].Session.Agent; a != "triage" {
		t.Errorf("session agent %q, want the first turn's (triage)", a)
	}
}

// TestSessionConcurrentTurns exports the turns of many sessions from many
// goroutines, as the engine's workers do, with the closing loop running:
// every turn is in exactly one closed session.
func TestSessionConcurrentTurns(t *testing.T) {
	cfg := testConfig()
	cfg.IdleTimeout = 5 * time.Millisecond
	cfg.MaxAge = 20 * time.Millisecond
	cfg.MaxSessions = 50
	sink := &collect{}
	a, err := New(cfg, telemetry.Settings{}, sink, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	const workers, perWorker = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				_ = a.Export(context.Background(), run(fmt.Sprintf("s%d", i%97), fmt.Sprintf("w%d-%d", w, i), 0))
			}
		})
	}
	wg.Wait()
	if err := a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range sink.evs {
		for _, id := range e.Session.TraceIDs() {
			seen[id]++
		}
	}
	if len(seen) != workers*perWorker {
		t.Fatalf("%d distinct turns in closed sessions, want %d", len(seen), workers*perWorker)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("turn %s in %d sessions", id, n)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := Config{Source: "redis", IdleTimeout: time.Hour, MaxAge: time.Minute, MaxSessions: 0, MaxBytes: -1}
	err := bad.Validate()
	for _, key := range []string{"source", "max_age", "max_sessions", "max_bytes"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("error %v does not name %s", err, key)
		}
	}
}

// dialogueJudge records the conversations offered to it.
type dialogueJudge struct {
	dialogues bool
	offered   []*scorer.Instance
}

func (j *dialogueJudge) OfferConversation(_ context.Context, in *scorer.Instance, _ *scorer.Evaluation) {
	j.offered = append(j.offered, in)
}

func (j *dialogueJudge) JudgesDialogues() bool { return j.dialogues }

// TestSessionKeepsDialogueForJudge: with a judge of whole dialogues each
// turn keeps its tool calls and model replies, counted in the memory
// bound, and the conversation's Transcript is every turn's dialogue;
// without one, turns keep their summary only.
func TestSessionKeepsDialogueForJudge(t *testing.T) {
	withTools := func(sid, trace string, off time.Duration) *scorer.Evaluation {
		e := run(sid, trace, off)
		tr := e.Trajectory
		tr.ToolCalls = []agentrun.ToolCall{{Name: "lookup", Arguments: `{"q":"x"}`, Result: "found " + trace}}
		tr.LLMCalls = []agentrun.LLMCall{{Output: "looking"}, {Output: tr.Output}}
		tr.Steps = []agentrun.Step{{Kind: agentrun.StepLLM, Index: 0}, {Kind: agentrun.StepTool, Index: 0}, {Kind: agentrun.StepLLM, Index: 1}}
		return e
	}
	for _, keep := range []bool{false, true} {
		j := &dialogueJudge{dialogues: keep}
		a, err := New(testConfig(), telemetry.Settings{}, &collect{}, Options{Judge: j})
		if err != nil {
			t.Fatal(err)
		}
		for i, tr := range []string{"t1", "t2"} {
			if err := a.Export(context.Background(), withTools("s", tr, time.Duration(i)*time.Second)); err != nil {
				t.Fatal(err)
			}
		}
		_, bytes := a.stats()
		if err := a.Cut(context.Background(), t0, true); err != nil {
			t.Fatal(err)
		}
		if len(j.offered) != 1 {
			t.Fatalf("keep %v: %d conversations offered", keep, len(j.offered))
		}
		var b strings.Builder
		for _, m := range j.offered[0].Transcript {
			fmt.Fprintf(&b, "%s:%s", m.Role, m.Content)
			for _, c := range m.ToolCalls {
				fmt.Fprintf(&b, "[%s %s]", c.Name, c.Arguments)
			}
			b.WriteString("|")
		}
		want := "user:q t1|assistant:a t1|user:q t2|assistant:a t2|"
		// summary bytes of two turns and one session
		wantBytes := int64(sessionOverhead + len("s"+"svc"+"a") + 2*(turnOverhead+len("t1"+"a"+"q t1"+"a t1")))
		if keep {
			want = `user:q t1|assistant:looking[lookup {"q":"x"}]|tool:found t1|assistant:a t1|` +
				`user:q t2|assistant:looking[lookup {"q":"x"}]|tool:found t2|assistant:a t2|`
			wantBytes += 2 * (callOverhead + int64(len(`lookup{"q":"x"}found t1`)) + replyOverhead + int64(len("looking")+8) + replyOverhead + int64(len("a t1")))
		}
		if got := b.String(); got != want {
			t.Errorf("keep %v: transcript\n%s\nwant\n%s", keep, got, want)
		}
		if bytes != wantBytes {
			t.Errorf("keep %v: %d bytes estimated, want %d", keep, bytes, wantBytes)
		}
	}
}

// TestSessionLateTurn: a turn of a session already scored opens the
// session's next revision, scored on the turns since when it closes and
// counted as late; a session id forgotten after max_age starts over.
func TestSessionLateTurn(t *testing.T) {
	f := newFixture(t, testConfig())
	cut := func() {
		t.Helper()
		if err := f.a.Cut(context.Background(), f.now, false); err != nil {
			t.Fatal(err)
		}
	}
	f.export(t, run("s1", "t1", 0))
	f.now = f.now.Add(time.Minute)
	cut()
	f.export(t, run("s1", "t2", 2*time.Minute)) // late
	f.export(t, run("s1", "t3", 2*time.Minute+time.Second))
	f.now = f.now.Add(2 * time.Minute)
	cut()
	f.now = f.now.Add(11 * time.Minute) // beyond max_age: s1 is forgotten
	cut()
	f.export(t, run("s1", "t4", 15*time.Minute))
	f.now = f.now.Add(time.Minute)
	cut()
	if len(f.sink.evs) != 3 {
		t.Fatalf("%d session evaluations, want 3", len(f.sink.evs))
	}
	var got []string
	for _, e := range f.sink.evs {
		s := e.Session
		r, _ := e.Result(MetricTurns)
		got = append(got, fmt.Sprintf("%v r%d late %d details %v/%v", s.TraceIDs(), s.Revision, s.LateTurns, r.Details["revision"], r.Details["late_turns"]))
	}
	want := []string{"[t1] r1 late 0 details <nil>/<nil>", "[t2 t3] r2 late 2 details 2/2", "[t4] r1 late 0 details <nil>/<nil>"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sessions\n%v\nwant\n%v", got, want)
	}
	if n := testutil.ToFloat64(f.a.m.lateTurns); n != 2 {
		t.Errorf("late turns = %v, want 2", n)
	}
}
