package session

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// maxTick bounds how often the assembler looks for sessions to close.
const maxTick = time.Second

// Per-session and per-turn memory beyond their strings: the structs, the
// map entry, the list element and the turns slice's spare capacity, as
// BenchmarkOpenSessions measures them (within 1 % for three-turn
// sessions).
const (
	sessionOverhead = 384
	turnOverhead    = 326
	// a kept tool call (agentrun.ToolCall) and reply (agentrun.Reply
	// with its calls slice)
	callOverhead  = 192
	replyOverhead = 64
)

// Assembler groups scored runs into sessions and exports each session's
// evaluation to its sink when the session closes. It is an exporter:
// Start starts the closing loop, Shutdown closes every open session (end
// of a replay, shutdown) before returning. All methods are safe for
// concurrent use.
type Assembler struct {
	cfg   Config
	opts  Options
	sink  scorer.Sink
	log   *slog.Logger
	m     *metrics
	clock func() time.Time

	mu   sync.Mutex
	open map[string]*openSession
	// scored remembers the sessions scored lately, by id (see mark).
	scored map[string]mark
	order  *list.List // of *openSession, oldest first
	bytes  int64

	stop chan struct{}
	done chan struct{}
}

// mark is what the assembler remembers of a scored session: when, its
// revision and its turns. In memory a later turn of the session id opens
// its next revision; from the store, a session read back again with as
// many turns is the same one, whose score is not readable yet.
type mark struct {
	at              time.Time
	revision, turns int
}

// remember records the scoring of s at now. Called with a.mu held. At
// most max_sessions sessions are remembered: one is forgotten to make
// room.
func (a *Assembler) remember(s *agentrun.Session, now time.Time) {
	if _, ok := a.scored[s.ID]; !ok && len(a.scored) >= a.cfg.MaxSessions {
		for id := range a.scored {
			delete(a.scored, id)
			break
		}
	}
	a.scored[s.ID] = mark{at: now, revision: s.Revision, turns: len(s.Turns)}
}

// forget drops the marks older than before. Called with a.mu held.
func (a *Assembler) forget(before time.Time) {
	for id, m := range a.scored {
		if m.at.Before(before) {
			delete(a.scored, id)
		}
	}
}

// openSession is a session still taking turns.
type openSession struct {
	s             agentrun.Session
	created, last time.Time
	bytes         int64
	elem          *list.Element
}

// New returns an Assembler exporting closed sessions to sink.
func New(cfg Config, set telemetry.Settings, sink scorer.Sink, opts Options) (*Assembler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	if sink == nil {
		return nil, errors.New("sessions: nil sink")
	}
	if opts.MetricTimeout <= 0 {
		opts.MetricTimeout = 5 * time.Second
	}
	a := &Assembler{cfg: cfg, opts: opts, sink: sink, log: set.Log(), clock: time.Now,
		open: make(map[string]*openSession), order: list.New(), scored: make(map[string]mark)}
	m, err := newMetrics(set.Registerer, a.stats)
	if err != nil {
		return nil, err
	}
	a.m = m
	return a, nil
}

// Export adds e's run to its session as a turn. Runs without a
// conversation id, judge follow-ups and session evaluations are ignored,
// and so is every run when sessions come from a Store.
// A session closed early to make room is exported before Export returns.
func (a *Assembler) Export(ctx context.Context, e *scorer.Evaluation) error {
	if e == nil || e.FollowUp || e.Session != nil || e.Trajectory == nil || e.Trajectory.SessionID == "" || a.opts.Store != nil {
		return nil
	}
	t := e.Trajectory
	turn := agentrun.TurnOf(t)
	if a.opts.Cases != nil {
		turn.CaseID = t.Attributes[a.opts.Cases.CaseIDAttribute()]
	}
	if turn.CaseID != "" || (a.opts.Judge != nil && a.opts.Judge.JudgesDialogues()) {
		turn.Calls, turn.Replies = t.ToolCalls, agentrun.Replies(t)
	}
	size := turnBytes(&turn)
	now := a.clock()
	var out []*openSession
	a.mu.Lock()
	o := a.open[t.SessionID]
	if o == nil {
		if len(a.open) >= a.cfg.MaxSessions {
			out = append(out, a.remove(a.order.Front().Value.(*openSession), agentrun.SessionClosedEvicted))
		}
		o = &openSession{created: now, bytes: sessionOverhead + int64(len(t.SessionID)+len(t.Service)+len(t.ServiceVersion)+len(t.Environment)+len(t.Agent)),
			s: agentrun.Session{ID: t.SessionID, Revision: a.scored[t.SessionID].revision + 1}}
		o.elem = a.order.PushBack(o)
		a.open[t.SessionID] = o
		a.bytes += o.bytes
	}
	if len(o.s.Turns) == 0 || turn.Start.Before(o.s.Turns[0].Start) {
		// the session is named after its first turn
		o.s.Service, o.s.ServiceVersion, o.s.Environment, o.s.Agent = t.Service, t.ServiceVersion, t.Environment, t.Agent
	}
	o.s.Turns = append(o.s.Turns, turn)
	if n := len(o.s.Turns); n > 1 && turn.Start.Before(o.s.Turns[n-2].Start) {
		slices.SortStableFunc(o.s.Turns, func(x, y agentrun.Turn) int { return x.Start.Compare(y.Start) })
	}
	o.last = now
	o.bytes += size
	a.bytes += size
	for a.bytes > a.cfg.MaxBytes && a.order.Len() > 0 {
		out = append(out, a.remove(a.order.Front().Value.(*openSession), agentrun.SessionClosedEvicted))
	}
	a.mu.Unlock()
	return a.export(ctx, out)
}

// Cut closes, as of now, the sessions idle for idle_timeout or open for
// max_age, or every open session when all is set, and exports them.
func (a *Assembler) Cut(ctx context.Context, now time.Time, all bool) error {
	var out []*openSession
	a.mu.Lock()
	a.forget(now.Add(-a.cfg.MaxAge))
	for el := a.order.Front(); el != nil; {
		o := el.Value.(*openSession)
		el = el.Next()
		switch {
		case all:
			out = append(out, a.remove(o, agentrun.SessionClosedShutdown))
		case now.Sub(o.created) >= a.cfg.MaxAge:
			out = append(out, a.remove(o, agentrun.SessionClosedMaxAge))
		case now.Sub(o.last) >= a.cfg.IdleTimeout:
			out = append(out, a.remove(o, agentrun.SessionClosedIdle))
		}
	}
	a.mu.Unlock()
	return a.export(ctx, out)
}

// remove takes o out of the open sessions, closed for reason, and
// remembers it: a later turn of its id is a late turn, which opens the
// session's next revision. Called with a.mu held.
func (a *Assembler) remove(o *openSession, reason string) *openSession {
	a.order.Remove(o.elem)
	delete(a.open, o.s.ID)
	a.bytes -= o.bytes
	o.s.CloseReason = reason
	if o.s.Revision > 1 {
		o.s.LateTurns = len(o.s.Turns)
	}
	a.remember(&o.s, a.clock())
	return o
}

// export scores each closed session and hands its evaluation to the sink.
func (a *Assembler) export(ctx context.Context, closed []*openSession) error {
	var errs []error
	for _, o := range closed {
		s := &o.s
		a.m.closed.WithLabelValues(s.CloseReason).Inc()
		a.m.lateTurns.Add(float64(s.LateTurns))
		ev := Evaluate(s)
		c := a.scoreCase(ctx, s, ev)
		if a.opts.Judge != nil {
			a.opts.Judge.OfferConversation(ctx, Conversation(s, c), ev)
		}
		if err := a.sink.Export(ctx, ev); err != nil {
			// the exporters count what they drop
			errs = append(errs, err)
			a.log.Debug("an exporter reported an error for a session", "session_id", s.ID, "err", err)
		}
	}
	return errors.Join(errs...)
}

// Start starts closing idle and old sessions in the background until
// Shutdown. Only ctx's values are used.
func (a *Assembler) Start(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stop != nil {
		return errors.New("sessions: already started")
	}
	stop, done := make(chan struct{}), make(chan struct{})
	a.stop, a.done = stop, done
	ctx = context.WithoutCancel(ctx)
	tick := min(maxTick, a.cfg.IdleTimeout/4)
	if a.opts.Store != nil {
		tick = min(storeTick, a.cfg.IdleTimeout/4)
	}
	go func() {
		defer close(done)
		tk := time.NewTicker(max(tick, time.Millisecond))
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-tk.C:
				if a.opts.Store != nil {
					_ = a.poll(ctx, now)
				} else {
					_ = a.Cut(ctx, now, false)
				}
			}
		}
	}()
	return nil
}

// Shutdown stops the closing loop and closes and exports every open
// session (reason "shutdown"); the exporters after it in the fan-out are
// still running, since a fan-out shuts down in reverse order.
func (a *Assembler) Shutdown(ctx context.Context) error {
	a.mu.Lock()
	stop, done := a.stop, a.done
	a.stop = nil
	a.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
	return a.Cut(ctx, a.clock(), true)
}

// stats reports the open sessions and their estimated bytes.
func (a *Assembler) stats() (n int, bytes int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.open), a.bytes
}

// turnBytes estimates a turn's memory: its summary and, when kept, its
// tool calls and replies.
func turnBytes(t *agentrun.Turn) int64 {
	n := turnOverhead + int64(len(t.TraceID)+len(t.SpanID)+len(t.Agent)+len(t.Input)+len(t.Output)+len(t.ErrorType)+len(t.CaseID))
	for i := range t.Calls {
		c := &t.Calls[i]
		n += callOverhead + int64(len(c.ID)+len(c.Name)+len(c.Arguments)+len(c.Result)+len(c.Error)+len(c.Agent)+len(c.SpanID))
	}
	for _, r := range t.Replies {
		n += replyOverhead + int64(len(r.Text)+8*len(r.Calls))
	}
	return n
}
