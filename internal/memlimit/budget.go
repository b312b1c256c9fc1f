package memlimit

import "sync"

// Budget bounds a quantity in flight, such as request bytes. A nil
// *Budget bounds nothing.
type Budget struct {
	mu   sync.Mutex
	used int64
	max  int64
}

// NewBudget returns a budget of max.
func NewBudget(max int64) *Budget { return &Budget{max: max} }

// Take adds n to the amount in flight when it fits, or when the taker
// already holds everything in flight (held == used): one request larger
// than the whole budget still gets through, alone. It reports whether n
// was taken.
func (b *Budget) Take(n, held int64) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max && b.used != held {
		return false
	}
	b.used += n
	return true
}

// Release gives n back.
func (b *Budget) Release(n int64) {
	if b == nil || n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}
