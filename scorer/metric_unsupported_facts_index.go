package scorer

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sync"
)

// responseFact is one distinct fact of the response.
type responseFact struct {
	surface   string // as written in the response
	off, n    uint32 // the normal form, in factSet.keys
	kind      factKind
	supported bool
}

// factKey is a normal form or alternative reading that names a fact.
type factKey struct {
	off, n uint32 // the text, in factSet.keys
	hash   uint32
	fact   int32
}

// factSet holds a response's distinct facts and finds them by normal form
// or alternative reading: an open-addressing hash table over the keys'
// bytes, so that looking a source fact up allocates nothing.
type factSet struct {
	facts []responseFact
	keys  []byte    // every key's text, back to back
	index []factKey // keys, in the order they were added
	slots []int32   // open addressing: 0 is empty, else index position + 1
	// lengths has bit lengthBit(n) set when a key of n bytes is in fs.
	lengths uint64
	// left counts the facts not yet supported, leftBySubstring those of
	// them that a substring of a source can still support.
	left, leftBySubstring int
}

// reset empties fs for another response.
func (fs *factSet) reset() {
	fs.facts, fs.keys, fs.index, fs.slots = fs.facts[:0], fs.keys[:0], fs.index[:0], fs.slots[:0]
	fs.left, fs.leftBySubstring, fs.lengths = 0, 0, 0
}

// norm returns the normal form of fact i.
func (fs *factSet) norm(i int) []byte {
	f := &fs.facts[i]
	return fs.keys[f.off : f.off+f.n]
}

// hashFactKey hashes key 8 bytes at a time (multiply and xor-shift).
func hashFactKey(key []byte) uint32 {
	const m = 0xbf58476d1ce4e5b9
	h := uint64(len(key)) * 0x9e3779b97f4a7c15
	for len(key) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(key)) * m
		h ^= h >> 31
		key = key[8:]
	}
	var t uint64
	for i, c := range key {
		t |= uint64(c) << (8 * i)
	}
	h = (h ^ t) * m
	return uint32(h ^ h>>32)
}

// lengthBit is the bit of factSet.lengths for a key of n bytes.
func lengthBit(n int) uint64 { return 1 << min(n, 63) }

// lookup returns the fact key names, or -1.
func (fs *factSet) lookup(key []byte) int {
	if fs.lengths&lengthBit(len(key)) == 0 {
		return -1
	}
	h := hashFactKey(key)
	mask := uint32(len(fs.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := fs.slots[i]
		if s == 0 {
			return -1
		}
		k := &fs.index[s-1]
		if k.hash == h && bytes.Equal(fs.keys[k.off:k.off+k.n], key) {
			return int(k.fact)
		}
	}
}

// insert makes key name fact i; key is not in fs yet.
func (fs *factSet) insert(key []byte, i int) {
	if 2*(len(fs.index)+1) > len(fs.slots) {
		fs.grow()
	}
	k := factKey{off: uint32(len(fs.keys)), n: uint32(len(key)), hash: hashFactKey(key), fact: int32(i)}
	fs.keys = append(fs.keys, key...)
	fs.index = append(fs.index, k)
	fs.lengths |= lengthBit(len(key))
	fs.place(k.hash, int32(len(fs.index)))
}

// place puts index position s-1, of the given hash, in a free slot.
func (fs *factSet) place(h uint32, s int32) {
	mask := uint32(len(fs.slots) - 1)
	i := h & mask
	for fs.slots[i] != 0 {
		i = (i + 1) & mask
	}
	fs.slots[i] = s
}

// grow doubles the slots (at least 64) and places every key again.
func (fs *factSet) grow() {
	n := max(64, 2*len(fs.slots))
	if cap(fs.slots) >= n {
		fs.slots = fs.slots[:n]
		clear(fs.slots)
	} else {
		fs.slots = make([]int32, n)
	}
	for j := range fs.index {
		fs.place(fs.index[j].hash, int32(j+1))
	}
}

// add records a response fact unless its normal form already names one.
func (fs *factSet) add(kind factKind, norm, alt []byte, surface string) {
	if len(fs.facts) >= unsupportedFactsMax || fs.lookup(norm) >= 0 {
		return
	}
	i := len(fs.facts)
	fs.facts = append(fs.facts, responseFact{surface: surface, off: uint32(len(fs.keys)), n: uint32(len(norm)), kind: kind})
	fs.insert(norm, i)
	if len(alt) > 0 && fs.lookup(alt) < 0 {
		fs.insert(alt, i)
	}
	fs.left++
	if kind.bySubstring() {
		fs.leftBySubstring++
	}
}

// support marks the response facts a source fact matches.
func (fs *factSet) support(norm, alt []byte) {
	if i := fs.lookup(norm); i >= 0 {
		fs.markSupported(i)
	}
	if len(alt) > 0 {
		if i := fs.lookup(alt); i >= 0 {
			fs.markSupported(i)
		}
	}
}

// markSupported marks fact i supported.
func (fs *factSet) markSupported(i int) {
	f := &fs.facts[i]
	if f.supported {
		return
	}
	f.supported = true
	fs.left--
	if f.kind.bySubstring() {
		fs.leftBySubstring--
	}
}

// supportBySubstring marks the identifiers, e-mail addresses and URLs
// whose normal form occurs in a source's text, ignoring case, reading at
// most unsupportedFactsScanBytes of source text in all.
func (fs *factSet) supportBySubstring(in *Instance) {
	budget := unsupportedFactsScanBytes
	var pending string // the normal forms of the facts looked up, from keys
	eachFactSource(in, func(s string) bool {
		for i := range fs.facts {
			f := &fs.facts[i]
			if f.supported || !f.kind.bySubstring() {
				continue
			}
			if budget -= len(s); budget < 0 {
				return false
			}
			if pending == "" {
				pending = string(fs.keys)
			}
			if containsFold(s, pending[f.off:f.off+f.n]) {
				fs.markSupported(i)
			}
		}
		return fs.leftBySubstring > 0
	})
}

// digitNeeds records the ASCII digits of a response's keys, so that a
// source scan can skip a word that cannot hold any of them.
//
// The digits of every fact a word emits (a number, a date and its year,
// an identifier, the parts of a word split at commas or slashes) are a
// contiguous run of the word's digits, its other characters dropped,
// except for dates written with slashes ("5/3/2026" is 2026-03-05); but a
// date key starts with its year, which such a word holds as written. So
// a word holds a key with digits only if the key's first one, two or
// three digits (all of them when it has fewer) occur together among the
// word's digits. Keys without a digit (e-mail addresses, URLs, and
// identifiers with an '@') come only from words with an '@' and from
// URLs, which are never skipped.
type digitNeeds struct {
	one   uint16     // bit d: a key with the single digit d
	two   [2]uint64  // bit 10a+b: a key whose two digits are a, b
	three [16]uint64 // bit 100a+10b+c: a key whose digits start a, b, c
}

// add records the digits of key.
func (d *digitNeeds) add(key []byte) {
	var first [3]int
	n := 0
	for _, c := range key {
		if '0' <= c && c <= '9' {
			if n < len(first) {
				first[n] = int(c - '0')
			}
			n++
		}
	}
	switch {
	case n == 1:
		d.one |= 1 << first[0]
	case n == 2:
		v := 10*first[0] + first[1]
		d.two[v>>6] |= 1 << (v & 63)
	case n >= 3:
		v := 100*first[0] + 10*first[1] + first[2]
		d.three[v>>6] |= 1 << (v & 63)
	}
}

// mayMatter reports whether word t may hold a key: it has an '@', or its
// digits hold the first digits of a key, together.
func (d *digitNeeds) mayMatter(t string) bool {
	a, b := -1, -1 // the two digits before, among t's digits
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			if c == '@' {
				return true
			}
			continue
		}
		x := int(c - '0')
		if d.one&(1<<x) != 0 {
			return true
		}
		if b >= 0 {
			if v := 10*b + x; d.two[v>>6]&(1<<(v&63)) != 0 {
				return true
			}
			if a >= 0 {
				if v := 100*a + 10*b + x; d.three[v>>6]&(1<<(v&63)) != 0 {
					return true
				}
			}
		}
		a, b = b, x
	}
	return false
}

// selective reports whether few digit triples match d: at most 300 of
// the 1000. A filter that lets most words through costs more than it
// saves.
func (d *digitNeeds) selective() bool {
	n := 100*bits.OnesCount16(d.one) + 10*(bits.OnesCount64(d.two[0])+bits.OnesCount64(d.two[1]))
	for _, w := range d.three {
		n += bits.OnesCount64(w)
	}
	return n <= 300
}

// digitNeeds returns the digits of every key of fs.
func (fs *factSet) digitNeeds() digitNeeds {
	var d digitNeeds
	for _, k := range fs.index {
		d.add(fs.keys[k.off : k.off+k.n])
	}
	return d
}

// factScratch is what one Score call works in: the response's facts and a
// scanner, reused across calls through factScratches.
type factScratch struct {
	set     factSet
	scanner factScanner
	needs   digitNeeds
	// add and support are set.add and set.support as scanner emit
	// functions, made once per scratch.
	add, support func(kind factKind, norm, alt []byte, surface string)
}

// factScratchKeep is the size above which a scratch's buffers are dropped
// rather than kept for the next call.
const factScratchKeep = 64 << 10

// factScratches keeps scratches between Score calls, so that a call
// allocates only its Result. The zero value does not pool: every get makes
// a new scratch.
type factScratches struct {
	pool *sync.Pool
}

// newFactScratches returns a pooling factScratches.
func newFactScratches() factScratches {
	return factScratches{pool: &sync.Pool{New: func() any { return newFactScratch() }}}
}

// newFactScratch returns an empty scratch with its emit functions.
func newFactScratch() *factScratch {
	fx := new(factScratch)
	fx.add = fx.set.add
	fx.support = func(_ factKind, norm, alt []byte, _ string) {
		fx.set.support(norm, alt)
		fx.scanner.stop = fx.set.left == 0
	}
	return fx
}

// get returns an empty scratch.
func (p factScratches) get() *factScratch {
	if p.pool == nil {
		return newFactScratch()
	}
	fx := p.pool.Get().(*factScratch)
	fx.set.reset()
	fx.scanner.stop, fx.scanner.needs = false, nil
	return fx
}

// put returns fx to the pool unless it grew large.
func (p factScratches) put(fx *factScratch) {
	if p.pool == nil || cap(fx.set.keys) > factScratchKeep || cap(fx.scanner.buf) > factScratchKeep || cap(fx.scanner.alt) > factScratchKeep {
		return
	}
	fx.scanner.text, fx.scanner.window = "", [3]factToken{}
	for i := range fx.set.facts {
		fx.set.facts[i].surface = ""
	}
	p.pool.Put(fx)
}
