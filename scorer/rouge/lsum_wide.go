package rouge

import "math/bits"

// lsumEvent is one step of a target line's LCS against a prediction line:
// the prediction token at position j matched the line's mask at masks[mask:],
// leaving the vector at vs[v:]. prev is the line's previous step, or -1.
type lsumEvent struct {
	j, prev, mask, v int32
}

// unionWide adds to sc.marks, for every target line, the positions of the
// LCS of the line against the prediction line c that rouge-score's
// _backtrack_norec picks (see backtrack), for lines of any length: it
// steps the vectors of the target lines holding each token of c, then
// walks back over each line's steps.
func (l *lsumTarget) unionWide(sc *scratch, c []int32, vocab int32) {
	events, vs, touched := sc.events[:0], sc.vs[:0], sc.touched[:0]
	cur, last := sc.cur, sc.last
	for j, y := range c {
		if y >= vocab {
			continue
		}
		for _, o := range l.occ[l.occStart[y]:l.occStart[y+1]] {
			ln := &l.lines[o.line]
			prev := last[o.line]
			if prev < 0 {
				touched = append(touched, o.line)
			}
			last[o.line] = int32(len(events))
			events = append(events, lsumEvent{j: int32(j), prev: prev, mask: o.mask, v: int32(len(vs))})
			if ln.words == 1 {
				v := cur[ln.off]
				if prev < 0 {
					v = ^uint64(0)
				}
				u := v & l.masks[o.mask]
				v = (v + u) | (v &^ u)
				cur[ln.off] = v
				vs = append(vs, v)
				continue
			}
			v := cur[ln.off : ln.off+ln.words]
			if prev < 0 {
				for k := range v {
					v[k] = ^uint64(0)
				}
			}
			advance(v, v, l.masks[o.mask:o.mask+ln.words])
			vs = append(vs, v...)
		}
	}
	for _, k := range touched {
		l.backtrack(events, vs, last[k], &l.lines[k], len(c), sc.marks)
		last[k] = -1
	}
	sc.events, sc.vs, sc.touched = events, vs, touched
}

// backtrack marks the positions of the target line ln that rouge-score's
// _backtrack_norec picks for one LCS of the line (the rows a, index i)
// against a prediction line of n tokens (the columns b, index j), from
// the line's steps ending at events[e].
//
// With the line as the bit side, the DP cell (i, j) is i minus the ones
// among the first i bits of V_j, the vector after the prediction's first
// j tokens; so off a match the cell above is equal to the cell (and the
// backtrack moves up) exactly when bit i-1 of V_j is set, and otherwise
// the cell to the left is (and it moves left). In the row of a step, the
// walk up stops at the highest position below i that either matches (it
// is marked and the walk moves diagonally) or has its bit of V_j clear
// (the walk moves left). In the rows between two steps V_j is unchanged
// and nothing matches, so the first of them moves up to the highest clear
// bit and the others move left at once; the step's row then starts at
// that clear bit, where it matches or moves left. Before the line's
// first step V_j is all ones, where the cell is 0 and nothing is left to
// mark.
func (l *lsumTarget) backtrack(events []lsumEvent, vs []uint64, e int32, ln *lsumLine, j int, marks []uint64) {
	w := int(ln.words)
	i := int(ln.n)
	mark := marks[ln.off : int(ln.off)+w]
	for e >= 0 {
		ev := &events[e]
		v := vs[ev.v : int(ev.v)+w]
		m := l.masks[ev.mask : int(ev.mask)+w]
		stop := m // the walk stops at a match, unless in a row between steps
		if j > int(ev.j)+1 {
			stop = nil
		}
		k := highestBelow(stop, v, i)
		if k < 0 {
			return
		}
		if m[k/64]>>(uint(k)%64)&1 != 0 {
			mark[k/64] |= 1 << (uint(k) % 64)
			i = k
		} else {
			i = k + 1
		}
		j = int(ev.j)
		e = ev.prev
	}
}

// highestBelow returns the highest position below i whose bit is set in m
// (nil for none) or clear in v, or -1.
func highestBelow(m, v []uint64, i int) int {
	for x := (i - 1) / 64; i > 0 && x >= 0; x-- {
		b := ^v[x]
		if m != nil {
			b |= m[x]
		}
		if r := i - 64*x; r < 64 {
			b &= 1<<uint(r) - 1
		}
		if b != 0 {
			return 64*x + bits.Len64(b) - 1
		}
	}
	return -1
}
