package sampling

import (
	"sync"
	"time"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func ptr[T any](v T) *T { return &v }

// traceOutside returns a trace id outside the sample at rate, and
// traceInside one inside it.
func traceOutside(rate float64) string {
	for _, id := range randomTraceIDs(10000) {
		if !Sampled(id, rate) {
			return id
		}
	}
	panic("no trace id outside the sample")
}

func traceInside(rate float64) string {
	for _, id := range randomTraceIDs(10000) {
		if Sampled(id, rate) {
			return id
		}
	}
	panic("no trace id inside the sample")
}
