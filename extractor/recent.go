package extractor

import (
	"encoding/binary"
	"math/bits"
	"time"
)

// recentSet remembers the ids of recently released traces, so that spans
// arriving after their trace was released are recognised as late. It holds
// at most cap ids (oldest forgotten first) for at most window.
//
// Release times are kept as offsets from the first one recorded, so the
// ring and the index hold no pointers and the garbage collector does not
// scan them (a time.Time carries a *Location).
//
// The index is an open-addressing table with linear probing, at most three
// quarters full, in which each id sits next to its release offset: a lookup
// usually touches one cache line. Removal shifts the following entries of the
// probe run back, so the table needs no tombstones.
type recentSet struct {
	window time.Duration
	// base is the first release time recorded; set is false until then.
	base time.Time
	set  bool
	ring []recentEntry
	next int
	// slots has a power-of-two length; shift turns a 64-bit hash into a
	// slot number.
	slots []recentSlot
	shift uint
	n     int
}

type recentEntry struct {
	id [16]byte
	at time.Duration // since base
}

// recentSlot is one place in the index; used is false for an empty one.
type recentSlot struct {
	id   [16]byte
	at   time.Duration // since base
	used bool
}

func newRecentSet(capacity int, window time.Duration) *recentSet {
	r := &recentSet{
		window: window,
		ring:   make([]recentEntry, 0, capacity),
	}
	if capacity > 0 {
		// smallest power of two holding capacity at a load of at most 3/4,
		// with at least one slot always empty so that every probe ends
		size := 1 << bits.Len(uint(capacity+capacity/3))
		r.slots = make([]recentSlot, size)
		r.shift = uint(64 - bits.TrailingZeros(uint(size)))
	}
	return r
}

// home returns the slot at which the probe for id starts. Both halves of the
// id are mixed in, since some generators put a timestamp or a constant in
// one of them.
func (r *recentSet) home(id *[16]byte) int {
	h := binary.LittleEndian.Uint64(id[:8]) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(id[8:]), 29)
	return int((h * 0x9e3779b97f4a7c15) >> r.shift)
}

// find returns the slot holding id, or the empty slot ending its probe run
// and false.
func (r *recentSet) find(id *[16]byte) (int, bool) {
	mask := len(r.slots) - 1
	for i := r.home(id); ; i = (i + 1) & mask {
		s := &r.slots[i]
		if !s.used {
			return i, false
		}
		if s.id == *id {
			return i, true
		}
	}
}

// put records id with at, replacing any offset recorded for it before.
func (r *recentSet) put(id [16]byte, at time.Duration) {
	i, ok := r.find(&id)
	if !ok {
		r.n++
	}
	r.slots[i] = recentSlot{id: id, at: at, used: true}
}

// remove forgets id if it is recorded with offset at.
func (r *recentSet) remove(id [16]byte, at time.Duration) {
	i, ok := r.find(&id)
	if !ok || r.slots[i].at != at {
		return
	}
	r.n--
	// backward-shift deletion: move later entries of the run into the gap
	// unless that would put them before their home slot
	mask := len(r.slots) - 1
	for j := (i + 1) & mask; r.slots[j].used; j = (j + 1) & mask {
		if (j-r.home(&r.slots[j].id))&mask >= (j-i)&mask {
			r.slots[i] = r.slots[j]
			i = j
		}
	}
	r.slots[i] = recentSlot{}
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
		r.remove(old.id, old.at)
		r.ring[r.next] = recentEntry{id: id, at: at}
		r.next = (r.next + 1) % len(r.ring)
	}
	r.put(id, at)
}

// contains reports whether id was released within the window before now.
func (r *recentSet) contains(id [16]byte, now time.Time) bool {
	if r.n == 0 {
		return false
	}
	i, ok := r.find(&id)
	return ok && now.Sub(r.base)-r.slots[i].at < r.window
}

// len returns the number of ids remembered.
func (r *recentSet) len() int { return r.n }

// ringCap returns the capacity of the set.
func (r *recentSet) ringCap() int { return cap(r.ring) }
