package judge

import (
	"hash/fnv"
	"time"
)

// expected estimates the runs still to be offered in l's window at now:
// the larger of the previous window's count and the current pace,
// scaled to the part of the window left. The pace is measured over at
// least a sixtieth of the window, so the first runs of a burst do not
// read as a trickle.
func (l *limit) expected(now time.Time) float64 {
	elapsed := max(now.Sub(l.start), l.length/60)
	left := 1 - float64(now.Sub(l.start))/float64(l.length)
	pace := float64(l.offered) * float64(l.length) / float64(elapsed)
	return max(float64(l.prevOffered), pace) * max(left, 0)
}

// Admit decides whether the run keyed by key (a trace id) may use the
// budget, so that what the limits allow is spread over each window
// instead of going to the first runs of a burst. For every limit it
// estimates the runs the rest of the window can still pay for (the room
// left over the use of one admitted run) and the runs still to come (see
// demand.expected), and admits the run when a hash of key falls below
// their ratio: each run has the same chance wherever it comes in the
// window, and the same run is always decided the same way. Without a
// previous window to go by, runs are admitted until the window's demand
// passes its room, and paced from then on. The calls themselves still
// reserve as usual, so a limit is never passed. A nil or unlimited budget
// admits every run.
func (b *Budget) Admit(key string) bool {
	if b == nil || b.cfg.unlimited() {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	b.roll(now)
	p := 1.0
	for i := range b.limits {
		l := &b.limits[i]
		if !l.runsStart.Equal(l.start) {
			prev := 0
			if l.start.Sub(l.runsStart) == l.length { // the next window: remember this one
				prev = l.offered
			}
			l.runsStart, l.offered, l.admitted, l.prevOffered = l.start, 0, 0, prev
		}
		l.offered++
		if l.max <= 0 {
			continue
		}
		// A run's use of the limit: the window's so far over its admitted
		// runs, else the previous windows' (see learn).
		unit := l.perRun
		if l.admitted > 0 && l.used > 0 {
			unit = l.used / float64(l.admitted)
		}
		if unit <= 0 {
			continue // nothing known about a run's use yet: reserve decides
		}
		room := (l.max - l.used) / unit
		if l.prevOffered == 0 && float64(l.offered) <= room {
			// No history and no sign yet that demand passes the limit:
			// a quiet window admits its runs.
			continue
		}
		if want := l.expected(now); want > 0 {
			p = min(p, max(room, 0)/want)
		}
	}
	if p < 1 && unitHash(b.name+"\x00"+key) >= p {
		return false
	}
	for i := range b.limits {
		b.limits[i].admitted++
	}
	return true
}

// unitHash maps key to [0, 1).
func unitHash(key string) float64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return float64(h.Sum64()>>11) / (1 << 53)
}

// learn keeps, as windows end, the use of one admitted run for the
// estimates of the next ones: calls from the minute; tokens (for both
// token limits) and the day's spend so far from the hour. Called under
// the lock before the windows roll to now.
func (b *Budget) learn(now time.Time) {
	calls, hour, day, usd := &b.limits[0], &b.limits[1], &b.limits[2], &b.limits[3]
	if calls.ends(now) && calls.admitted > 0 {
		calls.perRun = max(calls.used/float64(calls.admitted), 1)
	}
	if hour.ends(now) && hour.admitted > 0 {
		hour.perRun = hour.used / float64(hour.admitted)
		day.perRun = hour.perRun
		usd.perRun = usd.used / max(float64(usd.admitted), 1)
	}
}

// ends reports whether l has a window that now is past.
func (l *limit) ends(now time.Time) bool {
	return !l.start.IsZero() && !l.start.Equal(now.Truncate(l.length))
}
