package intern

import "math/rand/v2"

// Keys numbers uint64 keys. The zero value is ready to use; it is not
// safe for concurrent use.
type Keys struct {
	seed  uint64
	slots []keySlot // len is zero or a power of two
	n     int32
}

// keySlot is one table slot: a key and its id plus one (0 marks an empty
// slot).
type keySlot struct {
	key uint64
	id  int32
}

// Reset forgets every key and sizes the table for about n keys, keeping
// its storage.
func (t *Keys) Reset(n int) {
	t.seed = rand.Uint64()
	t.n = 0
	t.slots = emptySlots(t.slots, n)
}

// Len returns the number of distinct keys seen.
func (t *Keys) Len() int { return int(t.n) }

// ID returns the number of key, giving it the next number when key is
// new.
func (t *Keys) ID(key uint64) int32 {
	if t.slots == nil {
		t.Reset(0)
	}
	mask := uint64(len(t.slots) - 1)
	h := Mix(key ^ t.seed)
	i := h & mask
	for {
		s := t.slots[i]
		if s.id == 0 {
			break
		}
		if s.key == key {
			return s.id - 1
		}
		i = (i + 1) & mask
	}
	if 2*(t.n+1) > int32(len(t.slots)) {
		t.grow()
		return t.ID(key)
	}
	t.n++
	t.slots[i] = keySlot{key: key, id: t.n}
	return t.n - 1
}

// Lookup returns the number of key without adding it: ok is false when
// key was never numbered. It does not change the table, so any number of
// goroutines may call it at once as long as none numbers keys.
func (t *Keys) Lookup(key uint64) (id int32, ok bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := Mix(key^t.seed) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s.id == 0 {
			return 0, false
		}
		if s.key == key {
			return s.id - 1, true
		}
	}
}

// grow doubles the table and places every key again.
func (t *Keys) grow() {
	old := t.slots
	t.slots = make([]keySlot, 2*len(old))
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.id == 0 {
			continue
		}
		i := Mix(s.key^t.seed) & mask
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// Mix is the 64-bit finalizer of MurmurHash3: every input bit affects
// every output bit, and distinct inputs give distinct outputs.
func Mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Golden is 2^64 divided by the golden ratio, made odd: in a product
// with it the top bits depend on every bit of the other factor, so a
// table of 2^k slots can take a key's slot from the top k bits of the
// product (Fibonacci hashing).
const Golden = 0x9e3779b97f4a7c15

// Pair packs two ids into one key.
func Pair(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }
