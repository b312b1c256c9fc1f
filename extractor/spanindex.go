package extractor

import (
	"encoding/binary"
	"math/bits"
)

// spanIndex maps span ids to positions in a trace's span slice: an
// open-addressing table of positions, reused across traces. When ids
// repeat, the last span with the id wins.
type spanIndex struct {
	spans []span
	slots []int32 // position + 1; 0 is empty
	shift uint8
}

// reset indexes spans, reusing the table's storage.
func (ix *spanIndex) reset(spans []span) {
	size := 16
	for size < 2*len(spans) {
		size <<= 1
	}
	if cap(ix.slots) >= size {
		ix.slots = ix.slots[:size]
		clear(ix.slots)
	} else {
		ix.slots = make([]int32, size)
	}
	ix.shift = uint8(64 - bits.TrailingZeros(uint(size)))
	ix.spans = spans
	for i := range spans {
		ix.put(i)
	}
}

// release drops the references to the indexed trace.
func (ix *spanIndex) release() { ix.spans = nil }

func (ix *spanIndex) slot(id [8]byte) uint64 {
	return (binary.LittleEndian.Uint64(id[:]) * 0x9e3779b97f4a7c15) >> ix.shift
}

func (ix *spanIndex) put(i int) {
	id := ix.spans[i].id
	mask := uint64(len(ix.slots) - 1)
	for h := ix.slot(id); ; h = (h + 1) & mask {
		p := ix.slots[h]
		if p == 0 || ix.spans[p-1].id == id {
			ix.slots[h] = int32(i + 1)
			return
		}
	}
}

// get returns the position of the span with id.
func (ix *spanIndex) get(id [8]byte) (int, bool) {
	if len(ix.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(ix.slots) - 1)
	for h := ix.slot(id); ; h = (h + 1) & mask {
		p := ix.slots[h]
		if p == 0 {
			return 0, false
		}
		if ix.spans[p-1].id == id {
			return int(p - 1), true
		}
	}
}
