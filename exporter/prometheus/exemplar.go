package prometheus

import (
	"sync/atomic"
	"time"
)

// exemplarBudget limits how many observations per second carry an
// exemplar. Prometheus keeps one exemplar per histogram bucket and reads it
// at scrape time, so attaching one to every observation at thousands of runs
// per second only allocates: a budget of a few hundred per second keeps
// every bucket's exemplar fresh between scrapes at a fraction of the cost.
// The budget restarts every second; within a second the first observations
// get exemplars.
type exemplarBudget struct {
	max    int64
	second atomic.Int64 // unix second of the current window
	used   atomic.Int64
}

func newExemplarBudget(perSecond int) *exemplarBudget {
	return &exemplarBudget{max: int64(perSecond)}
}

// allow reports whether an observation at now may carry an exemplar.
func (b *exemplarBudget) allow(now time.Time) bool {
	if b.max <= 0 {
		return false
	}
	sec := now.Unix()
	if cur := b.second.Load(); cur != sec {
		if b.second.CompareAndSwap(cur, sec) {
			b.used.Store(0)
		}
	}
	return b.used.Add(1) <= b.max
}
