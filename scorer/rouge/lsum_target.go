package rouge

import "math/bits"

// lsumTarget is the target side of rougeLsum (see scoreLsum) on lines,
// built once: for each target word, the lines holding it and its match
// mask in each (the bits of the line's positions that hold it). Against a
// prediction line, the LCS of every target line is then stepped only on
// the prediction tokens that line holds, with the target line as the bit
// side (see bitLCS), and the backtrack visits only those steps. It is
// only read once built.
type lsumTarget struct {
	lines    []lsumLine
	occStart []int32 // word number -> its occurrences occ[occStart[id]:occStart[id+1]]
	occ      []lsumOcc
	masks    []uint64
	words    int // the lines' words in all
	// When every line has at most 64 tokens, occ and masks are nil and
	// the occurrences are in narrow, with their masks.
	narrow []narrowOcc
}

// lsumLine is one target line: ids[start:start+n], with words = ⌈n/64⌉
// words of bits at offset off in the per-call vectors.
type lsumLine struct {
	start, n, words, off int32
}

// lsumOcc is a word's occurrence in a target line: its match mask is the
// line's words at masks[mask:].
type lsumOcc struct {
	line, mask int32
}

// narrowOcc is a word's occurrence in a target line of at most 64
// tokens, with its match mask.
type narrowOcc struct {
	mask uint64
	line int32
}

// narrowEvent is a lsumEvent in a line of at most 64 tokens: the
// prediction token at position j has the occurrence occ, in line, whose
// mask it matched, leaving the vector v.
type narrowEvent struct {
	v, mask            uint64
	j, occ, line, prev int32
}

// narrowState is a target line's vector and last step in unionNarrow.
type narrowState struct {
	v    uint64
	last int32
}

// lsumEvent is one step of a target line's LCS against a prediction line:
// the prediction token at position j matched the line's mask at masks[mask:],
// leaving the vector at vs[v:]. prev is the line's previous step, or -1.
type lsumEvent struct {
	j, prev, mask, v int32
}

// build indexes the lines (ends lineEnds) of ids, numbered below vocab.
func (l *lsumTarget) build(ids, lineEnds []int32, vocab int32) {
	l.lines = make([]lsumLine, len(lineEnds))
	l.occStart = make([]int32, vocab+1)
	seen := make([]int32, vocab) // the last line holding the word, plus one
	nMasks := 0
	start := int32(0)
	for k, end := range lineEnds {
		n := end - start
		w := (n + 63) / 64
		l.lines[k] = lsumLine{start: start, n: n, words: w, off: int32(l.words)}
		l.words += int(w)
		for _, id := range ids[start:end] {
			if seen[id] != int32(k)+1 {
				seen[id] = int32(k) + 1
				l.occStart[id+1]++
				nMasks += int(w)
			}
		}
		start = end
	}
	for id := range vocab {
		l.occStart[id+1] += l.occStart[id]
	}
	l.occ = make([]lsumOcc, l.occStart[vocab])
	l.masks = make([]uint64, nMasks)
	next := append([]int32(nil), l.occStart[:vocab]...)
	at := make([]int32, vocab) // the word's mask in the current line
	clear(seen)
	nMasks = 0
	for k, ln := range l.lines {
		for p, id := range ids[ln.start : ln.start+ln.n] {
			if seen[id] != int32(k)+1 {
				seen[id] = int32(k) + 1
				at[id] = int32(nMasks)
				l.occ[next[id]] = lsumOcc{line: int32(k), mask: int32(nMasks)}
				next[id]++
				nMasks += int(ln.words)
			}
			l.masks[int(at[id])+p/64] |= 1 << (uint(p) % 64)
		}
	}
	if l.words == len(l.lines) {
		l.narrow = make([]narrowOcc, len(l.occ))
		for k, o := range l.occ {
			l.narrow[k] = narrowOcc{mask: l.masks[o.mask], line: o.line}
		}
		l.occ, l.masks = nil, nil
	}
}

// score is rougeLsum of the prediction pred (lines ending at predLines)
// against the target ids the lines were built from. Prediction tokens
// numbered vocab or above match no target token.
//
// The hits are the same as scoreLsum's: a marked target position of word
// id scores while the prediction's budget of id lasts, and the target's
// budget of id never runs out first, since each target position is
// marked once at most. So the order in which marked positions are counted
// does not matter.
func (l *lsumTarget) score(sc *scratch, ids, pred, predLines []int32, vocab int32) Score {
	m, n := len(ids), len(pred)
	if m == 0 || n == 0 {
		return Score{}
	}
	budget := resize(sc.counts, int(vocab))
	sc.counts = budget
	clear(budget)
	for _, y := range pred {
		if y < vocab {
			budget[y]++
		}
	}
	if l.narrow != nil {
		sc.marks = resize(sc.marks, len(l.lines))
		clear(sc.marks)
		sc.firsts = resize(sc.firsts, len(l.lines))
		sc.narrow = resize(sc.narrow, len(l.lines))
		for k := range sc.narrow {
			sc.narrow[k] = narrowState{v: ^uint64(0), last: -1}
		}
	} else {
		sc.marks = resize(sc.marks, l.words)
		clear(sc.marks)
		sc.cur = resize(sc.cur, l.words)
		sc.last = resize(sc.last, len(l.lines))
		for k := range sc.last {
			sc.last[k] = -1
		}
	}
	start := int32(0)
	for _, end := range predLines {
		if l.narrow != nil {
			l.unionNarrow(sc, pred[start:end], vocab)
		} else {
			l.unionLine(sc, pred[start:end], vocab)
		}
		start = end
	}
	hits := 0
	for _, ln := range l.lines {
		for x, b := range sc.marks[ln.off : ln.off+ln.words] {
			for ; b != 0; b &= b - 1 {
				id := ids[int(ln.start)+64*x+bits.TrailingZeros64(b)]
				if budget[id] > 0 {
					hits++
					budget[id]--
				}
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}

// unionLine adds to sc.marks, for every target line, the positions of the
// LCS of the line against the prediction line c that rouge-score's
// _backtrack_norec picks.
func (l *lsumTarget) unionLine(sc *scratch, c []int32, vocab int32) {
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
			m := l.masks[o.mask : o.mask+ln.words]
			var carry uint64
			for k, vk := range v {
				u := vk & m[k]
				var sum uint64
				sum, carry = bits.Add64(vk, u, carry)
				v[k] = sum | (vk &^ u)
			}
			vs = append(vs, v...)
		}
	}
	for _, k := range touched {
		l.backtrack(events, vs, last[k], &l.lines[k], len(c), sc.marks)
		last[k] = -1
	}
	sc.events, sc.vs, sc.touched = events, vs, touched
}

// unionNarrow is unionLine when every target line has at most 64
// tokens, so that each line's vector is one word. sc.narrow holds each
// line's vector (all ones) and last step (-1) between calls.
func (l *lsumTarget) unionNarrow(sc *scratch, c []int32, vocab int32) {
	n := listNarrow(c, vocab, l.occStart, sc.narrowEvents[:cap(sc.narrowEvents)])
	if n > cap(sc.narrowEvents) {
		sc.narrowEvents = make([]narrowEvent, n)
		listNarrow(c, vocab, l.occStart, sc.narrowEvents)
	}
	events := sc.narrowEvents[:n]
	state := sc.narrow[:len(l.lines)]
	firsts := sc.firsts[:len(l.lines)]
	marks := sc.marks[:len(l.lines)]
	for _, k := range firsts[:stepNarrow(events, l.narrow, state, firsts)] {
		st := &state[k]
		low := ^uint64(0) >> (64 - uint(l.lines[k].n)) // the bits below the line's length
		marks[k] |= walkNarrow(events, st.last, low, int32(len(c)))
		*st = narrowState{v: ^uint64(0), last: -1}
	}
}

// listNarrow writes to events, in order, the position j and occurrence
// occ of each step of a target line's vector against the prediction line
// c: one for each occurrence in the target of each token of c. It returns
// their count; those past len(events) are left out.
func listNarrow(c []int32, vocab int32, occStart []int32, events []narrowEvent) int {
	e := 0
	for j, y := range c {
		if y >= vocab {
			continue
		}
		for o, hi := occStart[y], occStart[y+1]; o < hi; o++ {
			if e < len(events) {
				ev := &events[e]
				ev.j, ev.occ = int32(j), o
			}
			e++
		}
	}
	return e
}

// stepNarrow steps, in order, the vectors in state of the target lines
// of events, filling in the rest of each step, and writes to firsts the
// lines in the order of their first steps, returning their count. Its
// loop makes no calls.
func stepNarrow(events []narrowEvent, occ []narrowOcc, state []narrowState, firsts []int32) int {
	nFirsts := 0
	for e := range events {
		ev := &events[e]
		o := &occ[ev.occ]
		st := &state[o.line]
		if st.last < 0 {
			firsts[nFirsts] = o.line
			nFirsts++
		}
		v := st.v
		u := v & o.mask
		v = (v + u) | (v &^ u)
		ev.v, ev.mask, ev.line, ev.prev = v, o.mask, o.line, st.last
		st.v, st.last = v, int32(e)
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

// resize returns s with length n, reusing its storage when it is large
// enough; the contents are not cleared.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
