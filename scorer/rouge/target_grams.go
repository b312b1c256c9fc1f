package rouge

import (
	"math/rand/v2"

	"github.com/evalsidecar/evalsidecar/internal/intern"
)

// gramTable holds the n-grams of a target for one n >= 2, chained as
// gramNumbers chains them: the key of an n-gram pairs the number of its
// first n-1 tokens' key (a token's own number for one token, a longer
// prefix's number bit-inverted) with its last token. Every prefix of a
// target n-gram is in the table, so a prediction n-gram is looked up one
// token at a time and missed at the first prefix the target lacks. The
// keys are in an open-addressing table with linear probing at a load of
// at most one half, hashed with a random seed (see intern.Golden), and a
// key's slot keeps the target's count of it as an n-gram, so a count of
// the prediction's n-grams is kept by slot. It is only read once built,
// so concurrent lookups are safe.
type gramTable struct {
	seed  uint64
	slots []gramSlot // len is a power of two, with one empty slot at least
	shift uint       // a key's first slot is ((key ^ seed) * intern.Golden) >> (shift & 63)
	total int        // the target's n-gram count
}

// gramSlot is one slot: a key, its number plus one (0 marks an empty
// slot) and the target's count of it as an n-gram (0 for a shorter
// prefix).
type gramSlot struct {
	key       uint64
	id, count int32
}

// build finds the n-grams of ids.
func (g *gramTable) build(ids []int32, n int) {
	g.total = max(len(ids)-n+1, 0)
	size := 16
	for size < 2*(n-1)*g.total {
		size *= 2
	}
	g.seed = rand.Uint64()
	g.slots = make([]gramSlot, size)
	g.shift = slotShift(size)
	keys := int32(0)
	for i := range g.total {
		k, at := ids[i], 0
		for d := 1; d < n; d++ {
			at = g.add(intern.Pair(k, ids[i+d]), &keys)
			k = ^(g.slots[at].id - 1)
		}
		g.slots[at].count++
	}
}

// add returns the slot of key, numbering it *keys when it is new.
func (g *gramTable) add(key uint64, keys *int32) int {
	mask := uint64(len(g.slots) - 1)
	i := ((key ^ g.seed) * intern.Golden) >> (g.shift & 63)
	for ; g.slots[i].id != 0; i = (i + 1) & mask {
		if g.slots[i].key == key {
			return int(i)
		}
	}
	*keys++
	g.slots[i] = gramSlot{key: key, id: *keys}
	return int(i)
}

// overlap returns the clipped overlap of the n-grams of pred with the
// target's: each prediction n-gram the target has counts while the
// target's count of it lasts. Tokens numbered vocab or above are in no
// target n-gram. pc is scratch space for a count per slot, all zeros.
// The lookups are written out in the loop, which makes no calls.
func (g *gramTable) overlap(pred []int32, n int, vocab int32, pc []int32) int {
	if n == 2 {
		return g.overlap2(pred, vocab, pc)
	}
	slots, seed, shift := g.slots, g.seed, g.shift
	mask := uint64(len(slots) - 1)
	overlap := 0
grams:
	for i := 0; i+n <= len(pred); i++ {
		k := pred[i]
		if k >= vocab {
			continue
		}
		var at uint64
		for _, y := range pred[i+1 : i+n] {
			if y >= vocab {
				continue grams
			}
			key := intern.Pair(k, y)
			for at = ((key ^ seed) * intern.Golden) >> (shift & 63); ; at = (at + 1) & mask {
				sl := &slots[at]
				if sl.id == 0 {
					continue grams
				}
				if sl.key == key {
					k = ^(sl.id - 1)
					break
				}
			}
		}
		if pc[at] < slots[at].count {
			overlap++
			pc[at]++
		}
	}
	return overlap
}

// overlap2 is overlap for bigrams, whose key is a pair of tokens.
func (g *gramTable) overlap2(pred []int32, vocab int32, pc []int32) int {
	slots, seed, shift := g.slots, g.seed, g.shift
	mask := uint64(len(slots) - 1)
	pc = pc[:len(slots)]
	overlap := 0
	for i := 1; i < len(pred); i++ {
		a, b := pred[i-1], pred[i]
		if a >= vocab || b >= vocab {
			continue
		}
		key := intern.Pair(a, b)
		for at := ((key ^ seed) * intern.Golden) >> (shift & 63); ; at = (at + 1) & mask {
			sl := &slots[at]
			if sl.id == 0 {
				break
			}
			if sl.key == key {
				if pc[at] < sl.count {
					overlap++
					pc[at]++
				}
				break
			}
		}
	}
	return overlap
}
