package bleu

import (
	"math/bits"
	"math/rand/v2"
)

// vocab numbers the tokens of a Reference densely in first-seen order,
// with an open-addressing table. A token of up to 16 bytes is held in a
// slot as its length and two words that together cover its bytes, so
// finding it takes a few integer operations and no string comparison.
// lookupAll only reads, so any number of goroutines may call it at once
// as long as none calls id. The zero value is empty.
type vocab struct {
	seed  uint64
	slots []vocabSlot // len is zero or a power of two
	toks  []string    // by number
}

// vocabSlot is one table slot: a token's words (see key), its length and
// its number plus one (0 marks an empty slot).
type vocabSlot struct {
	lo, hi uint64
	n      int32
	id     int32
}

// reset forgets every token and sizes the table for about n tokens,
// keeping its storage.
func (v *vocab) reset(n int) {
	v.seed = rand.Uint64()
	clear(v.toks) // drop references to the old tokens
	v.toks = v.toks[:0]
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(v.slots) < size {
		v.slots = make([]vocabSlot, size)
		return
	}
	v.slots = v.slots[:size]
	clear(v.slots)
}

// len returns the number of distinct tokens numbered.
func (v *vocab) len() int { return len(v.toks) }

// lookupAll sets ids[i] to the number of toks[i], a span of text, or to
// -1 when that token was never numbered. ids must be as long as toks.
func (v *vocab) lookupAll(ids []int32, toks []span, text string) {
	ids = ids[:len(toks)]
	if len(v.toks) == 0 {
		for i := range ids {
			ids[i] = -1
		}
		return
	}
	mask := uint64(len(v.slots) - 1)
	for k, sp := range toks {
		// key, written out
		var lo, hi, mid uint64
		if sp.end-sp.start <= 8 && sp.start+8 <= len(text) {
			lo = le64at(text, sp.start) & (^uint64(0) >> (64 - 8*uint(sp.end-sp.start)))
		} else {
			lo, hi, mid = tokenWords(text[sp.start:sp.end])
		}
		h := mix(lo ^ v.seed ^ (bits.RotateLeft64(hi, 31)+uint64(sp.end-sp.start))*keyMul ^ mid)
		n := int32(sp.end - sp.start)
		id := int32(-1)
		for i := h & mask; ; i = (i + 1) & mask {
			sl := &v.slots[i]
			if sl.id == 0 {
				break
			}
			if sl.lo == lo && sl.hi == hi && sl.n == n && (n <= 16 || v.toks[sl.id-1] == text[sp.start:sp.end]) {
				id = sl.id - 1
				break
			}
		}
		ids[k] = id
	}
}

// id returns the number of the token sp of text, giving it the next
// number when it is new. The table keeps the token.
func (v *vocab) id(text string, sp span) int32 {
	if v.slots == nil {
		v.reset(0)
	}
	lo, hi, h := v.key(text, sp)
	tok := text[sp.start:sp.end]
	mask := uint64(len(v.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &v.slots[i]
		if sl.id == 0 {
			break
		}
		if sl.lo == lo && sl.hi == hi && sl.n == int32(len(tok)) && (len(tok) <= 16 || v.toks[sl.id-1] == tok) {
			return sl.id - 1
		}
	}
	if 2*(len(v.toks)+1) > len(v.slots) {
		v.grow()
	}
	id := int32(len(v.toks))
	v.toks = append(v.toks, tok)
	v.place(tok, id)
	return id
}

// place puts tok, numbered id, in the first free slot of its probe
// sequence.
func (v *vocab) place(tok string, id int32) {
	lo, hi, h := v.key(tok, span{0, len(tok)})
	mask := uint64(len(v.slots) - 1)
	i := h & mask
	for v.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	v.slots[i] = vocabSlot{lo: lo, hi: hi, n: int32(len(tok)), id: id + 1}
}

// grow doubles the table and places every token again.
func (v *vocab) grow() {
	v.slots = make([]vocabSlot, 2*len(v.slots))
	for id, tok := range v.toks {
		v.place(tok, int32(id))
	}
}

// key returns two words that, with its length, determine the token sp of
// text when it has at most 16 bytes, and its hash with the table's seed.
// A token of at most eight bytes is in lo, the first in the low byte, and
// hi is 0; a longer one has its first eight bytes in lo and its last
// eight in hi, overlapping when it is shorter than 16 bytes. The words
// and the hash depend on the token's bytes only, not on where in text it
// is.
func (v *vocab) key(text string, sp span) (lo, hi, h uint64) {
	n := sp.end - sp.start
	var mid uint64
	if n <= 8 && sp.start+8 <= len(text) {
		// read eight bytes and keep the token's
		lo = le64at(text, sp.start) & (^uint64(0) >> (64 - 8*uint(n)))
	} else {
		lo, hi, mid = tokenWords(text[sp.start:sp.end])
	}
	return lo, hi, mix(lo ^ v.seed ^ (bits.RotateLeft64(hi, 31)+uint64(n))*keyMul ^ mid)
}

// keyMul is the multiplier of the hashes: 2^64 over the golden ratio.
const keyMul = 0x9e3779b97f4a7c15

// tokenWords returns the words of tok as key does, and for a token longer than
// 16 bytes a hash of the bytes between them (else 0).
func tokenWords(tok string) (lo, hi, mid uint64) {
	n := len(tok)
	switch {
	case n > 8:
		lo, hi = le64at(tok, 0), le64at(tok, n-8)
	case n >= 4:
		// the first and the last four bytes, overlapping
		lo = uint64(le32at(tok, 0)) | uint64(le32at(tok, n-4))<<(8*(n-4))
	case n > 0:
		lo = uint64(tok[0]) | uint64(tok[n/2])<<(8*(n/2)) | uint64(tok[n-1])<<(8*(n-1))
	}
	if n > 16 {
		for m := tok[8 : n-8]; len(m) > 0; {
			if len(m) >= 8 {
				mid = bits.RotateLeft64((mid^le64at(m, 0))*keyMul, 27)
				m = m[8:]
			} else {
				mid = bits.RotateLeft64((mid^uint64(m[0]))*keyMul, 27)
				m = m[1:]
			}
		}
	}
	return lo, hi, mid
}

// mix is MurmurHash3's 64-bit finalizer.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// le64at reads the eight bytes of s from i on, the first in the low byte.
func le64at(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// le32at reads the four bytes of s from i on, the first in the low byte.
func le32at(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
