package extractor

import "time"

// recentSet remembers the ids of recently released traces, so that spans
// arriving after their trace was released are recognised as late. It holds
// at most cap ids (oldest forgotten first) for at most window.
//
// Release times are kept as offsets from the first one recorded, so the
// ring and the index hold no pointers and the garbage collector does not
// scan them (a time.Time carries a *Location).
type recentSet struct {
	window time.Duration
	// base is the first release time recorded; set is false until then.
	base time.Time
	set  bool
	ring []recentEntry
	next int
	ids  map[[16]byte]time.Duration
}

type recentEntry struct {
	id [16]byte
	at time.Duration // since base
}

func newRecentSet(capacity int, window time.Duration) *recentSet {
	return &recentSet{
		window: window,
		ring:   make([]recentEntry, 0, capacity),
		ids:    make(map[[16]byte]time.Duration, capacity),
	}
}

// add records that id was released at now.
func (r *recentSet) add(id [16]byte, now time.Time) {
	if cap(r.ring) == 0 {
		return
	}
	if !r.set {
		r.base, r.set = now, true
	}
	at := now.Sub(r.base)
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, recentEntry{id: id, at: at})
	} else {
		old := r.ring[r.next]
		if was, ok := r.ids[old.id]; ok && was == old.at {
			delete(r.ids, old.id)
		}
		r.ring[r.next] = recentEntry{id: id, at: at}
		r.next = (r.next + 1) % len(r.ring)
	}
	r.ids[id] = at
}

// contains reports whether id was released within the window before now.
func (r *recentSet) contains(id [16]byte, now time.Time) bool {
	at, ok := r.ids[id]
	return ok && now.Sub(r.base)-at < r.window
}

// len returns the number of ids remembered.
func (r *recentSet) len() int { return len(r.ids) }

// ringCap returns the capacity of the set.
func (r *recentSet) ringCap() int { return cap(r.ring) }
