package extractor

import "time"

// recentSet remembers the ids of recently released traces, so that spans
// arriving after their trace was released are recognised as late. It holds
// at most cap ids (oldest forgotten first) for at most window.
type recentSet struct {
	window time.Duration
	ring   []recentEntry
	next   int
	ids    map[[16]byte]time.Time
}

type recentEntry struct {
	id [16]byte
	at time.Time
}

func newRecentSet(capacity int, window time.Duration) *recentSet {
	return &recentSet{
		window: window,
		ring:   make([]recentEntry, 0, capacity),
		ids:    make(map[[16]byte]time.Time, capacity),
	}
}

// add records that id was released at now.
func (r *recentSet) add(id [16]byte, now time.Time) {
	if cap(r.ring) == 0 {
		return
	}
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, recentEntry{id: id, at: now})
	} else {
		old := r.ring[r.next]
		if at, ok := r.ids[old.id]; ok && at.Equal(old.at) {
			delete(r.ids, old.id)
		}
		r.ring[r.next] = recentEntry{id: id, at: now}
		r.next = (r.next + 1) % len(r.ring)
	}
	r.ids[id] = now
}

// contains reports whether id was released within the window before now.
func (r *recentSet) contains(id [16]byte, now time.Time) bool {
	at, ok := r.ids[id]
	return ok && now.Sub(at) < r.window
}

// len returns the number of ids remembered.
func (r *recentSet) len() int { return len(r.ids) }

// ringCap returns the capacity of the set.
func (r *recentSet) ringCap() int { return cap(r.ring) }
