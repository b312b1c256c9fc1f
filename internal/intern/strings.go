package intern

import (
	"hash/maphash"
	"unsafe"
)

// Strings numbers strings. The zero value is ready to use; it is not safe
// for concurrent use.
type Strings struct {
	seed  maphash.Seed
	slots []strSlot // len is zero or a power of two
	strs  []string
}

// strSlot is one table slot: the low bits of the string's hash and its id
// plus one (0 marks an empty slot).
type strSlot struct {
	hash uint32
	id   int32
}

// Reset forgets every string and sizes the table for about n strings,
// keeping its storage.
func (t *Strings) Reset(n int) {
	t.seed = maphash.MakeSeed()
	clear(t.strs) // drop references to the old strings
	t.strs = t.strs[:0]
	t.slots = emptySlots(t.slots, n)
}

// Len returns the number of distinct strings seen.
func (t *Strings) Len() int { return len(t.strs) }

// String returns the string numbered id.
func (t *Strings) String(id int32) string { return t.strs[id] }

// ID returns the number of s, giving it the next number when s is new.
// The table keeps s.
func (t *Strings) ID(s string) int32 {
	h := maphash.String(t.seedOf(), s)
	if id, ok := t.find(h, s); ok {
		return id
	}
	return t.insert(h, s)
}

// IDBytes is ID for a string held in b; it copies b only when the string
// is new.
func (t *Strings) IDBytes(b []byte) int32 {
	if len(b) == 0 {
		return t.ID("")
	}
	s := unsafe.String(&b[0], len(b)) // only compared, never kept
	h := maphash.String(t.seedOf(), s)
	if id, ok := t.find(h, s); ok {
		return id
	}
	return t.insert(h, string(b))
}

// Lookup returns the number of s without adding it: ok is false when s
// was never numbered. It does not change the table, so any number of
// goroutines may call it at once as long as none numbers strings.
func (t *Strings) Lookup(s string) (id int32, ok bool) {
	if len(t.strs) == 0 {
		return 0, false
	}
	return t.find(maphash.String(t.seed, s), s)
}

// LookupBytes is Lookup for a string held in b.
func (t *Strings) LookupBytes(b []byte) (id int32, ok bool) {
	if len(b) == 0 {
		return t.Lookup("")
	}
	return t.Lookup(unsafe.String(&b[0], len(b))) // only compared, never kept
}

// seedOf makes a zero-value table usable.
func (t *Strings) seedOf() maphash.Seed {
	if t.slots == nil {
		t.Reset(0)
	}
	return t.seed
}

// find returns the id of s, whose hash is h.
func (t *Strings) find(h uint64, s string) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := t.slots[i]
		if sl.id == 0 {
			return 0, false
		}
		if sl.hash == uint32(h) && t.strs[sl.id-1] == s {
			return sl.id - 1, true
		}
	}
}

// insert adds s, known to be absent, with hash h.
func (t *Strings) insert(h uint64, s string) int32 {
	if 2*(len(t.strs)+1) > len(t.slots) {
		t.grow()
	}
	id := int32(len(t.strs))
	t.strs = append(t.strs, s)
	t.place(h, id)
	return id
}

// place puts id in the first free slot of its probe sequence.
func (t *Strings) place(h uint64, id int32) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = strSlot{hash: uint32(h), id: id + 1}
}

// grow doubles the table and places every string again.
func (t *Strings) grow() {
	t.slots = make([]strSlot, 2*len(t.slots))
	for id, s := range t.strs {
		t.place(maphash.String(t.seed, s), int32(id))
	}
}

// emptySlots returns a table of empty slots for about n keys, reusing
// slots' storage when it is large enough.
func emptySlots[T any](slots []T, n int) []T {
	size := tableSize(n)
	if cap(slots) < size {
		return make([]T, size)
	}
	slots = slots[:size]
	clear(slots)
	return slots
}

// tableSize is the smallest power of two, at least 16, that holds n keys
// at a load of at most one half.
func tableSize(n int) int {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return size
}
