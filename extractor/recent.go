package extractor

import (
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// recentSet remembers the ids of recently released traces, so that spans
// arriving after their trace was released are recognised as late. It holds
// at most its capacity of ids, the least recently released forgotten
// first, each for at most window. The assembler's lock guards it.
type recentSet struct {
	window time.Duration
	ids    *simplelru.LRU[[16]byte, time.Time] // release time by id; nil: capacity 0
}

func newRecentSet(capacity int, window time.Duration) *recentSet {
	r := &recentSet{window: window}
	if capacity > 0 {
		r.ids, _ = simplelru.NewLRU[[16]byte, time.Time](capacity, nil) // fails only for capacity <= 0
	}
	return r
}

// add records that id was released at now.
func (r *recentSet) add(id [16]byte, now time.Time) {
	if r.ids != nil {
		r.ids.Add(id, now)
	}
}

// contains reports whether id was released within the window before now.
func (r *recentSet) contains(id [16]byte, now time.Time) bool {
	if r.ids == nil {
		return false
	}
	at, ok := r.ids.Peek(id)
	return ok && now.Sub(at) < r.window
}
