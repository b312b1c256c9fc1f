package judge

import (
	"hash/fnv"
	"math"
	"time"
)

// demand counts the runs offered to a budget and the runs admitted in one
// window, and remembers the runs offered in the window before.
type demand struct {
	start             time.Time
	offered, admitted int
	prevOffered       int
	prevAdmitted      int
}

// at moves d to the window starting at start.
func (d *demand) at(start time.Time, length time.Duration) {
	if d.start.Equal(start) {
		return
	}
	if start.Sub(d.start) == length { // the next window: remember this one
		d.prevOffered, d.prevAdmitted = d.offered, d.admitted
	} else {
		d.prevOffered, d.prevAdmitted = 0, 0
	}
	d.start, d.offered, d.admitted = start, 0, 0
}

// expected estimates the runs still to be offered in the window at now:
// the larger of the previous window's count and the current pace,
// scaled to the part of the window left. The pace is measured over at
// least a sixtieth of the window, so the first runs of a burst do not
// read as a trickle.
func (d *demand) expected(now time.Time, length time.Duration) float64 {
	elapsed := max(now.Sub(d.start), length/60)
	left := 1 - float64(now.Sub(d.start))/float64(length)
	pace := float64(d.offered) * float64(length) / float64(elapsed)
	return max(float64(d.prevOffered), pace) * max(left, 0)
}

// perRun estimates the share of a limit one admitted run uses: the
// window's use so far over its admitted runs, else the previous window's
// average, else one call (for calls) or nothing known (0).
func perRun(used float64, admitted int, prevPerRun float64) float64 {
	if admitted > 0 && used > 0 {
		return used / float64(admitted)
	}
	return prevPerRun
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
	minute, hour, day := b.roll()
	b.minuteRuns.at(minute, time.Minute)
	b.hourRuns.at(hour, time.Hour)
	b.dayRuns.at(day, 24*time.Hour)
	b.minuteRuns.offered++
	b.hourRuns.offered++
	b.dayRuns.offered++
	p := 1.0
	share := func(limit, used float64, d *demand, length time.Duration, prevPerRun float64) {
		if limit <= 0 {
			return
		}
		unit := perRun(used, d.admitted, prevPerRun)
		if unit <= 0 {
			return // nothing known about a run's use yet: reserve decides
		}
		room := (limit - used) / unit
		if d.prevOffered == 0 && float64(d.offered) <= room {
			// No history and no sign yet that demand passes the limit:
			// a quiet window admits its runs.
			return
		}
		if want := d.expected(now, length); want > 0 {
			p = min(p, max(room, 0)/want)
		}
	}
	share(float64(b.cfg.CallsPerMinute), float64(b.calls.used), &b.minuteRuns, time.Minute, max(b.prevCallsPerRun, 1))
	share(float64(b.cfg.TokensPerHour), float64(b.hourTokens.used), &b.hourRuns, time.Hour, b.prevTokensPerRun)
	share(float64(b.cfg.TokensPerDay), float64(b.dayTokens.used), &b.dayRuns, 24*time.Hour, b.prevTokensPerRun)
	share(b.cfg.USDPerDay, b.dayUSD.used, &b.dayRuns, 24*time.Hour, b.prevUSDPerRun)
	if p < 1 && unitHash(b.name+"\x00"+key) >= p {
		return false
	}
	b.minuteRuns.admitted++
	b.hourRuns.admitted++
	b.dayRuns.admitted++
	return true
}

// unitHash maps key to [0, 1).
func unitHash(key string) float64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return float64(h.Sum64()>>11) / (1 << 53)
}

// learn keeps the use per admitted run of the windows that are ending,
// for the estimates of the next ones; called under the lock before the
// windows roll.
func (b *Budget) learn(minute, hour time.Time) {
	if !b.calls.start.IsZero() && !b.calls.start.Equal(minute) && b.minuteRuns.admitted > 0 {
		b.prevCallsPerRun = float64(b.calls.used) / float64(b.minuteRuns.admitted)
	}
	if !b.hourTokens.start.IsZero() && !b.hourTokens.start.Equal(hour) && b.hourRuns.admitted > 0 {
		b.prevTokensPerRun = float64(b.hourTokens.used) / float64(b.hourRuns.admitted)
		b.prevUSDPerRun = b.dayUSD.used / math.Max(float64(b.dayRuns.admitted), 1)
	}
}
