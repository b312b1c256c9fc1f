package offline

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress reports an evaluation's advance on a writer: a bar redrawn in
// place on a terminal, a plain line every few seconds otherwise. It is
// safe for concurrent use.
type progress struct {
	w     io.Writer
	bar   bool
	total int
	start time.Time

	mu       sync.Mutex
	done     int
	calls    int
	cost     float64
	last     time.Time
	reported int // rows done at the last report
	closed   bool
}

// progress intervals: a bar is redrawn often, plain lines are spaced.
const (
	barEvery   = 200 * time.Millisecond
	plainEvery = 5 * time.Second
)

func newProgress(w io.Writer, bar bool, total int) *progress {
	return &progress{w: w, bar: bar, total: total, start: time.Now()}
}

// add records a finished row and the judge calls and cost it took, and
// reports when it is time to.
func (p *progress) add(calls int, cost float64) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.calls += calls
	p.cost += cost
	now := time.Now()
	every := plainEvery
	if p.bar {
		every = barEvery
	}
	if now.Sub(p.last) >= every || p.done == p.total {
		p.last = now
		p.report(now)
	}
}

// finish ends the report: the bar gets its final state and a newline.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	if p.reported != p.done || p.done == 0 {
		p.report(time.Now())
	}
	if p.bar {
		fmt.Fprintln(p.w)
	}
}

// report writes the current state; under the lock.
func (p *progress) report(now time.Time) {
	p.reported = p.done
	elapsed := now.Sub(p.start).Seconds()
	rate := 0.0
	if elapsed > 0 {
		rate = float64(p.done) / elapsed
	}
	eta := "-"
	if rate > 0 && p.done < p.total {
		eta = (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second).String()
	}
	stats := fmt.Sprintf("%d/%d rows  %.1f rows/s  ETA %s  judge calls %d  cost $%.4f", p.done, p.total, rate, eta, p.calls, p.cost)
	if !p.bar {
		fmt.Fprintf(p.w, "eval: %s\n", stats)
		return
	}
	const width = 30
	filled := width
	if p.total > 0 {
		filled = width * p.done / p.total
	}
	fmt.Fprintf(p.w, "\r[%s%s] %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), stats)
}
