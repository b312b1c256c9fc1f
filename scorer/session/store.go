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

// poll scores the store's idle sessions as of now. A session scored here
// is remembered until its score is surely readable from the store, so a
// poll that runs before the exporter's insert lands does not score it
// again.
func (a *Assembler) poll(ctx context.Context, now time.Time) error {
	sessions, err := a.opts.Store.IdleSessions(ctx, now.Add(-a.cfg.IdleTimeout), now.Add(-a.cfg.MaxAge), a.cfg.MaxSessions)
	if err != nil {
		a.m.storeErrors.Inc()
		a.log.Warn("reading idle sessions failed; retried at the next poll", "err", err)
		return err
	}
	forget := now.Add(-max(a.cfg.IdleTimeout, 10*time.Minute))
	var out []*openSession
	a.mu.Lock()
	for id, at := range a.scored {
		if at.Before(forget) {
			delete(a.scored, id)
		}
	}
	for _, s := range sessions {
		if _, done := a.scored[s.ID]; done {
			continue
		}
		a.scored[s.ID] = now
		s.CloseReason = agentrun.SessionClosedIdle
		out = append(out, &openSession{s: *s})
	}
	a.mu.Unlock()
	return a.export(ctx, out)
}
