package rouge

import (
	"math/bits"
	"math/rand/v2"

	"github.com/evalsidecar/evalsidecar/internal/intern"
	"github.com/evalsidecar/evalsidecar/internal/swar"
)

// wordTable numbers a target's words for the lookups of its predictions'
// tokens: open addressing with linear probing at a load of at most one
// half, hashed with a random seed per table. A slot keeps a word's first
// eight bytes and its length, so the usual short word is found without a
// string comparison. It is only read once built, so any number of
// goroutines may look words up at once.
type wordTable struct {
	seed  uint64
	slots []wordSlot // len is a power of two
	shift uint       // a hash's slot is its top bits: hash >> shift
	words []string   // the words, by number
}

// wordSlot is one slot: a word's first eight bytes (little-endian, zero
// padded), its length and its number plus one (0 marks an empty slot).
type wordSlot struct {
	head uint64
	n    int32
	id   int32
}

// build numbers words, which are distinct and not empty, in order. The
// table has at least one empty slot.
func (t *wordTable) build(words []string) {
	size := 16
	for size < 2*len(words) {
		size *= 2
	}
	t.seed = rand.Uint64()
	t.slots = make([]wordSlot, size)
	t.shift = slotShift(size)
	t.words = words
	mask := uint64(size - 1)
	for id, w := range words {
		head, h := wordHash(w, t.seed)
		i := h >> (t.shift & 63)
		for t.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = wordSlot{head: head, n: int32(len(w)), id: int32(id) + 1}
	}
}

// lookupSpans writes to ids the numbers of the words spans of text (see
// tokenSpan) that have at most eight bytes, all ASCII letters and digits,
// found from their bytes lowercased, or spanUnknown for those the table
// does not hold; the other spans get spanOther. It returns the count of
// spans left unnumbered. Its loop makes no calls.
func (t *wordTable) lookupSpans(text string, spans []tokenSpan, ids []int32) (left int) {
	slots, seed, shift := t.slots, t.seed, t.shift
	mask := uint64(len(slots) - 1)
	ids = ids[:len(spans)]
	for k, sp := range spans {
		start, size := sp.start, uint(sp.end-sp.start)
		if sp.end < 0 || size > 8 || start+8 > len(text) {
			ids[k] = spanOther
			left++
			continue
		}
		// the bytes are ASCII letters and digits: setting 0x20 lowercases
		// the capitals and keeps the others
		head := (swar.Load64(text, start) | lowBits*0x20) & swar.LowBytes(int(size))
		id := int32(spanUnknown)
		for h := ((seed ^ uint64(size)*hashLen ^ head) * intern.Golden) >> (shift & 63); ; h = (h + 1) & mask {
			sl := &slots[h]
			if sl.id == 0 {
				left++
				break
			}
			if sl.head == head && uint(sl.n) == size {
				id = sl.id - 1
				break
			}
		}
		ids[k] = id
	}
	return left
}

// lookupText returns the number of the word text[start:end], of ASCII
// letters and digits, lowercased, or false when the table does not hold
// it, reading the text eight bytes at a time where it can.
func (t *wordTable) lookupText(text string, start, end int) (int32, bool) {
	if start+(end-start+7)&^7 > len(text) {
		var buf [32]byte
		return t.lookupBytes(lowerToken(buf[:0], text[start:end]))
	}
	size := end - start
	head := (swar.Load64(text, start) | lowBits*0x20) & swar.LowBytes(min(size, 8))
	h := (t.seed ^ uint64(size)*hashLen ^ head) * intern.Golden
	for at := start + 8; at < end; at += 8 {
		h = (h ^ (swar.Load64(text, at)|lowBits*0x20)&swar.LowBytes(min(end-at, 8))) * intern.Golden
	}
	mask := uint64(len(t.slots) - 1)
	for i := h >> (t.shift & 63); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.id == 0 {
			return 0, false
		}
		if sl.head == head && int(sl.n) == size && (size <= 8 || sameLower(text[start+8:end], t.words[sl.id-1][8:])) {
			return sl.id - 1, true
		}
	}
}

// sameLower reports whether s, of ASCII letters and digits, lowercased
// is w.
func sameLower(s, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

// lookupBytes returns the number of the word held in b, or false when the
// table does not hold it.
func (t *wordTable) lookupBytes(b []byte) (int32, bool) {
	head, h := wordHash(b, t.seed)
	return t.find(string(b), head, h)
}

// find returns the number of s, whose first eight bytes are head and
// hash is h.
func (t *wordTable) find(s string, head, h uint64) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := h >> (t.shift & 63); ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.id == 0 {
			return 0, false
		}
		if sl.head == head && int(sl.n) == len(s) && (len(s) <= 8 || t.words[sl.id-1][8:] == s[8:]) {
			return sl.id - 1, true
		}
	}
}

// wordHash returns the first eight bytes of s (little-endian, zero
// padded) and the hash of s under seed, whose top bits number its slot.
func wordHash[T string | []byte](s T, seed uint64) (head, h uint64) {
	n := len(s)
	h = seed ^ uint64(n)*hashLen
	for k := 0; ; k += 8 {
		var x uint64
		if k+8 <= n {
			x = uint64(s[k]) | uint64(s[k+1])<<8 | uint64(s[k+2])<<16 | uint64(s[k+3])<<24 |
				uint64(s[k+4])<<32 | uint64(s[k+5])<<40 | uint64(s[k+6])<<48 | uint64(s[k+7])<<56
		} else {
			for b := n - 1; b >= k; b-- {
				x = x<<8 | uint64(s[b])
			}
		}
		if k == 0 {
			head = x
		}
		h = (h ^ x) * intern.Golden
		if k+8 >= n {
			return head, h
		}
	}
}

// hashLen spreads a word's length in wordHash.
const hashLen = 0xc2b2ae3d27d4eb4f

// slotShift returns the shift that leaves the top bits of a hash that
// number the slots of a table of size slots, a power of two.
func slotShift(size int) uint { return uint(64 - bits.TrailingZeros64(uint64(size))) }
