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
	// tooBig is set when the lines' masks would take more than
	// maxMaskWords; nothing is kept then, and fits is false.
	tooBig bool
}

// maxLsumSteps bounds the steps score lists for one prediction line
// (see fits), 8 MiB of them.
const maxLsumSteps = 1 << 18

// fits reports whether score may score pred (lines ending at predLines)
// against the m target tokens the lines hold: its steps, one for each
// occurrence in a target line of each prediction token, must be no more
// than the word steps of scoreLsum's LCS tables (each target token
// against each prediction line's words) nor than maxLsumSteps. A long
// prediction repeating words that many target lines hold is scored by
// scoreLsum instead, whose cost does not grow with those repeats.
func (l *lsumTarget) fits(pred, predLines []int32, m int) bool {
	if l.tooBig {
		return false
	}
	budget, start := 0, int32(0)
	for _, end := range predLines {
		budget += m * (int(end-start+63)/64 + 1)
		start = end
	}
	budget = min(budget, maxLsumSteps)
	vocab := int32(len(l.occStart) - 1)
	steps := 0
	for _, y := range pred {
		if y < vocab {
			if steps += int(l.occStart[y+1] - l.occStart[y]); steps > budget {
				return false
			}
		}
	}
	return true
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
	if l.words > len(l.lines) && nMasks > maxMaskWords {
		l.tooBig = true
		return
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
// against the target ids the lines were built from; predCounts are the
// prediction's counts of the target's words, numbered below
// len(predCounts). Prediction tokens numbered above match no target
// token.
//
// The hits are the same as scoreLsum's: a marked target position of word
// id scores while the prediction's budget of id lasts, and the target's
// budget of id never runs out first, since each target position is
// marked once at most. So the order in which marked positions are counted
// does not matter.
func (l *lsumTarget) score(sc *scratch, ids, pred, predLines, predCounts []int32) Score {
	m, n := len(ids), len(pred)
	if m == 0 || n == 0 {
		return Score{}
	}
	vocab := int32(len(predCounts))
	budget := resize(sc.counts, len(predCounts))
	sc.counts = budget
	copy(budget, predCounts)
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
		if c := pred[start:end]; l.narrow != nil {
			l.unionNarrow(sc, c, vocab)
		} else {
			l.unionWide(sc, c, vocab)
		}
		start = end
	}
	hits := 0
	for _, ln := range l.lines {
		line := ids[ln.start : ln.start+ln.n]
		for x, b := range sc.marks[ln.off : ln.off+ln.words] {
			for at := line[64*x:]; b != 0; b &= b - 1 {
				if id := at[bits.TrailingZeros64(b)]; budget[id] > 0 {
					hits++
					budget[id]--
				}
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}
