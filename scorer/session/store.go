package session

import (
	"context"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Store is a shared store of scored runs (ClickHouse) that sessions are
// assembled from when several replicas score the runs of one
// conversation.
type Store interface {
	// IdleSessions returns up to limit sessions with runs started since
	// since, whose last run ended before idleBefore and that have no
	// session score yet, their turns in start order.
	IdleSessions(ctx context.Context, idleBefore, since time.Time, limit int) ([]*agentrun.Session, error)
}

// storeTick bounds how often the store is polled.
const storeTick = 10 * time.Second

// poll scores the store's idle sessions as of now: those never scored,
// and those with turns that arrived after their last scoring (their next
// revision, with every turn). A session scored here is remembered with
// its turn count until its score is surely readable from the store, so a
// poll that runs before the exporter's insert lands does not score it
// again.
func (a *Assembler) poll(ctx context.Context, now time.Time) error {
	sessions, err := a.opts.Store.IdleSessions(ctx, now.Add(-a.cfg.IdleTimeout), now.Add(-a.cfg.MaxAge), a.cfg.MaxSessions)
	if err != nil {
		a.m.storeErrors.Inc()
		a.log.Warn("reading idle sessions failed; retried at the next poll", "err", err)
		return err
	}
	var out []*openSession
	a.mu.Lock()
	a.forget(now.Add(-max(a.cfg.IdleTimeout, 10*time.Minute)))
	for _, s := range sessions {
		if m, done := a.scored[s.ID]; done && m.turns == len(s.Turns) {
			continue
		}
		s.CloseReason = agentrun.SessionClosedIdle
		a.remember(s, now)
		out = append(out, &openSession{s: *s})
	}
	a.mu.Unlock()
	return a.export(ctx, out)
}
