package bleu

import (
	"math/bits"
	"math/rand/v2"

	"github.com/evalsidecar/evalsidecar/internal/intern"
	"github.com/evalsidecar/evalsidecar/internal/swar"
)

// vocab numbers the tokens of a Reference densely in first-seen order,
// with an open-addressing table. A token of up to 16 bytes is held in a
// slot as its length and two words that together cover its bytes, so
// finding it takes a few integer operations and no string comparison.
// find only reads, so any number of goroutines may call it at once as
// long as none calls id. The zero value is empty.
type vocab struct {
	seed  uint64
	slots []vocabSlot // len is zero or a power of two
	toks  []string    // by number
	keys  []tokenKey  // by number
}

// tokenKey is a token's words (see keyWords) and length.
type tokenKey struct {
	lo, hi uint64
	n      int
}

// vocabSlot is one table slot: a token's words (see keyWords), its
// length and its number plus one (0 marks an empty slot).
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
	v.keys = v.keys[:0]
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

// find returns the number of tok, whose words are lo and hi (see keyWords)
// and hash h, or -1 when it was never numbered.
func (v *vocab) find(lo, hi, h uint64, tok string) int32 {
	if len(v.toks) == 0 {
		return -1
	}
	mask := uint64(len(v.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &v.slots[i]
		if sl.id == 0 {
			return -1
		}
		if sl.lo == lo && sl.hi == hi && sl.n == int32(len(tok)) && (len(tok) <= 16 || v.toks[sl.id-1] == tok) {
			return sl.id - 1
		}
	}
}

// id returns the number of the token sp of text, giving it the next
// number when it is new. The table keeps the token.
func (v *vocab) id(text string, sp span) int32 {
	if v.slots == nil {
		v.reset(0)
	}
	lo, hi, mid := keyWords(text, sp)
	tok := text[sp.start:sp.end]
	h := v.hash(lo, hi, mid, len(tok))
	mask := uint64(len(v.slots) - 1)
	i := h & mask
	for ; v.slots[i].id != 0; i = (i + 1) & mask {
		if sl := &v.slots[i]; sl.lo == lo && sl.hi == hi && sl.n == int32(len(tok)) && (len(tok) <= 16 || v.toks[sl.id-1] == tok) {
			return sl.id - 1
		}
	}
	id := int32(len(v.toks))
	v.toks = append(v.toks, tok)
	v.keys = append(v.keys, tokenKey{lo, hi, len(tok)})
	if 2*len(v.toks) > len(v.slots) {
		v.grow()
		return id
	}
	v.slots[i] = vocabSlot{lo: lo, hi: hi, n: int32(len(tok)), id: id + 1}
	return id
}

// place puts token id, whose hash is h, in the first free slot of its
// probe sequence.
func (v *vocab) place(id int32, h uint64) {
	mask := uint64(len(v.slots) - 1)
	i := h & mask
	for v.slots[i].id != 0 {
		i = (i + 1) & mask
	}
	k := &v.keys[id]
	v.slots[i] = vocabSlot{lo: k.lo, hi: k.hi, n: int32(k.n), id: id + 1}
}

// grow doubles the table and places every token again.
func (v *vocab) grow() {
	v.slots = make([]vocabSlot, 2*len(v.slots))
	for id, tok := range v.toks {
		lo, hi, mid := keyWords(tok, span{0, len(tok)})
		v.place(int32(id), v.hash(lo, hi, mid, len(tok)))
	}
}

// keyWords returns two words that, with its length, determine the token sp
// of text when it has at most 16 bytes, and for a longer token a hash of
// the bytes between them (else 0). A token of at most eight bytes is in
// lo, the first in the low byte, and hi is 0; a longer one has its first
// eight bytes in lo and its last eight in hi, overlapping when it is
// shorter than 16 bytes. They depend on the token's bytes only, not on
// where in text it is.
func keyWords(text string, sp span) (lo, hi, mid uint64) {
	if sp.end-sp.start <= 8 && sp.start+8 <= len(text) {
		// read eight bytes and keep the token's
		return swar.Load64(text, sp.start) & swar.LowBytes(sp.end-sp.start), 0, 0
	}
	return tokenWords(text[sp.start:sp.end])
}

// hash is the hash of a token of n bytes whose words are lo, hi and mid
// (see keyWords), with the table's seed.
func (v *vocab) hash(lo, hi, mid uint64, n int) uint64 {
	return intern.Mix(lo ^ v.seed ^ (bits.RotateLeft64(hi, 31)+uint64(n))*intern.Golden ^ mid)
}

// tokenWords returns what keyWords returns for the token tok.
func tokenWords(tok string) (lo, hi, mid uint64) {
	n := len(tok)
	switch {
	case n > 8:
		lo, hi = swar.Load64(tok, 0), swar.Load64(tok, n-8)
	case n >= 4:
		// the first and the last four bytes, overlapping
		lo = uint64(swar.Load32(tok, 0)) | uint64(swar.Load32(tok, n-4))<<(8*(n-4))
	case n > 0:
		lo = uint64(tok[0]) | uint64(tok[n/2])<<(8*(n/2)) | uint64(tok[n-1])<<(8*(n-1))
	}
	if n > 16 {
		for m := tok[8 : n-8]; len(m) > 0; {
			if len(m) >= 8 {
				mid = bits.RotateLeft64((mid^swar.Load64(m, 0))*intern.Golden, 27)
				m = m[8:]
			} else {
				mid = bits.RotateLeft64((mid^uint64(m[0]))*intern.Golden, 27)
				m = m[1:]
			}
		}
	}
	return lo, hi, mid
}
