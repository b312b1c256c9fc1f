package rouge

import "math/bits"

// narrowEvent is a lsumEvent in a line of at most 64 tokens: the
// prediction token at position j matched mask in line, leaving the vector
// v.
type narrowEvent struct {
	v, mask       uint64
	j, line, prev int32
}

// narrowState is a target line's vector, last step and the positions
// its steps matched in unionNarrow.
type narrowState struct {
	v, seen uint64
	last    int32
}

// unionNarrow is unionWide when every target line has at most 64
// tokens, so that each line's vector is one word, and the steps are
// listed (listNarrow), then taken (stepNarrow), by loops that make no
// calls. sc.narrow holds each line's vector (all ones), last step (-1)
// and matched positions (none) between calls.
func (l *lsumTarget) unionNarrow(sc *scratch, c []int32, vocab int32) {
	n := listNarrow(c, vocab, l.occStart, l.narrow, sc.narrowEvents[:cap(sc.narrowEvents)])
	if n > cap(sc.narrowEvents) {
		sc.narrowEvents = make([]narrowEvent, n)
		listNarrow(c, vocab, l.occStart, l.narrow, sc.narrowEvents)
	}
	events := sc.narrowEvents[:n]
	state := sc.narrow[:len(l.lines)]
	firsts := sc.firsts[:len(l.lines)]
	marks := sc.marks[:len(l.lines)]
	for _, k := range firsts[:stepNarrow(events, state, firsts)] {
		st := &state[k]
		// the walk marks only positions the steps matched: when those
		// are marked already, it adds nothing to the union
		if st.seen&^marks[k] != 0 {
			low := ^uint64(0) >> (64 - uint(l.lines[k].n)) // the bits below the line's length
			marks[k] |= walkNarrow(events, st.last, low, int32(len(c)))
		}
		*st = narrowState{v: ^uint64(0), last: -1}
	}
}

// listNarrow writes to events, in order, the position j, line and mask
// of each step of a target line's vector against the prediction line c:
// one for each occurrence in the target of each token of c. It returns
// their count; those past len(events) are left out.
func listNarrow(c []int32, vocab int32, occStart []int32, occ []narrowOcc, events []narrowEvent) int {
	e := 0
	for j, y := range c {
		if y >= vocab {
			continue
		}
		for _, o := range occ[occStart[y]:occStart[y+1]] {
			if e < len(events) {
				ev := &events[e]
				ev.j, ev.line, ev.mask = int32(j), o.line, o.mask
			}
			e++
		}
	}
	return e
}

// stepNarrow steps, in order, the vectors in state of the target lines
// of events, filling in each step's vector and previous step, and writes to firsts the
// lines in the order of their first steps, returning their count. Its
// loop makes no calls.
func stepNarrow(events []narrowEvent, state []narrowState, firsts []int32) int {
	nFirsts := 0
	for e := range events {
		ev := &events[e]
		st := &state[ev.line]
		if st.last < 0 {
			firsts[nFirsts] = ev.line
			nFirsts++
		}
		v := st.v
		u := v & ev.mask
		v = (v + u) | (v &^ u)
		ev.v, ev.prev = v, st.last
		st.v, st.last = v, int32(e)
		st.seen |= ev.mask
	}
	return nFirsts
}

// walkNarrow is backtrack's walk for a line of at most 64 tokens, from
// its last step e against a prediction line of n tokens; low has the
// bits below the line's length. It returns the marked positions.
func walkNarrow(events []narrowEvent, e int32, low uint64, n int32) uint64 {
	var mark uint64
	j := n
	for e >= 0 {
		ev := &events[e]
		stop := ev.mask // the walk stops at a match, unless in a row between steps
		if j > ev.j+1 {
			stop = 0
		}
		x := (stop | ^ev.v) & low
		if x == 0 {
			break
		}
		b := uint64(1) << (uint(bits.Len64(x)) - 1)
		if ev.mask&b != 0 {
			mark |= b
			low = b - 1
		} else {
			low = b | (b - 1)
		}
		j = ev.j
		e = ev.prev
	}
	return mark
}
