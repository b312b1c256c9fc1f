package rouge

import "math/bits"

// lcsLength computes the LCS length bit-parallel (Allison-Dix, in
// Hyyrö's formulation; see bitLCS), with the shorter list as the bit side.
// It costs len(b)·⌈len(a)/64⌉ word steps instead of the DP's
// len(a)·len(b) cells, with the same result (the DP, lcsLengthDP in the
// tests, is the oracle).
func lcsLength(a, b []int32) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return 0
	}
	var l bitLCS
	l.init(a)
	v := make([]uint64, l.words)
	for k := range v {
		v[k] = ^uint64(0)
	}
	for _, y := range b {
		l.step(v, v, y)
	}
	return len(a) - l.ones(v, len(a))
}

// bitLCS is the bit-parallel LCS of a sequence x (the bit side) against
// the tokens y of another, one at a time: a vector V with one bit per
// position of x starts all ones, and each y, with M the positions of x
// holding y, steps V to (V + (V & M)) | (V &^ M), adding with carry across
// 64-bit words. After the tokens y[:i], the DP cell of x[:j] against y[:i]
// is j minus the ones among V's first j bits.
type bitLCS struct {
	words int
	maxID int32
	row   []int32  // id -> 1 + index of its match mask; 0 when id is not in x
	masks []uint64 // words per mask
}

// init builds the match masks of x; it reuses l's storage.
func (l *bitLCS) init(x []int32) {
	l.words = (len(x) + 63) / 64
	l.maxID = -1
	for _, id := range x {
		l.maxID = max(l.maxID, id)
	}
	if cap(l.row) < int(l.maxID)+1 {
		l.row = make([]int32, int(l.maxID)+1)
	}
	l.row = l.row[:int(l.maxID)+1]
	clear(l.row)
	rows := 0
	for _, id := range x {
		if id >= 0 && l.row[id] == 0 {
			rows++
			l.row[id] = int32(rows)
		}
	}
	if n := rows * l.words; cap(l.masks) < n {
		l.masks = make([]uint64, n)
	} else {
		l.masks = l.masks[:n]
		clear(l.masks)
	}
	for i, id := range x {
		if id >= 0 {
			l.masks[int(l.row[id]-1)*l.words+i/64] |= 1 << (uint(i) % 64)
		}
	}
}

// step writes to dst the vector that follows v after token y; dst may be
// v.
func (l *bitLCS) step(dst, v []uint64, y int32) {
	if y < 0 || y > l.maxID || l.row[y] == 0 {
		copy(dst, v) // no match: V is unchanged
		return
	}
	advance(dst, v, l.masks[int(l.row[y]-1)*l.words:int(l.row[y])*l.words])
}

// advance writes to dst the LCS vector that follows v on a token whose
// match mask is m: (V + (V & M)) | (V &^ M), adding with carry across the
// words. dst may be v.
func advance(dst, v, m []uint64) {
	m = m[:len(v)]
	dst = dst[:len(v)]
	var carry uint64
	for k, vk := range v {
		u := vk & m[k]
		var sum uint64
		sum, carry = bits.Add64(vk, u, carry)
		dst[k] = sum | (vk &^ u)
	}
}

// ones counts the ones among the first n bits of v.
func (l *bitLCS) ones(v []uint64, n int) int {
	c := 0
	for k := 0; k < n/64; k++ {
		c += bits.OnesCount64(v[k])
	}
	if r := n % 64; r != 0 {
		c += bits.OnesCount64(v[n/64] & (1<<uint(r) - 1))
	}
	return c
}

// lcsTable holds every row of the LCS DP table of a against b, in bit
// form: row i is the bitLCS vector over b's positions after the tokens
// a[:i]. It is reused across calls.
type lcsTable struct {
	l    *bitLCS // b's match masks
	own  bitLCS  // the masks fill builds
	rows []uint64
}

// fill computes the rows of a against b.
func (t *lcsTable) fill(a, b []int32) {
	t.own.init(b)
	t.fillWith(a, &t.own)
}

// fillWith computes the rows of a against the sequence whose match masks
// are l.
func (t *lcsTable) fillWith(a []int32, l *bitLCS) {
	t.l = l
	w := l.words
	n := (len(a) + 1) * w
	if cap(t.rows) < n {
		t.rows = make([]uint64, n)
	}
	t.rows = t.rows[:n]
	for k := 0; k < w; k++ {
		t.rows[k] = ^uint64(0)
	}
	for i, y := range a {
		l.step(t.rows[(i+1)*w:(i+2)*w], t.rows[i*w:(i+1)*w], y)
	}
}

// cell returns the DP cell: the LCS length of a[:i] and b[:j].
func (t *lcsTable) cell(i, j int) int {
	w := t.l.words
	return j - t.l.ones(t.rows[i*w:(i+1)*w], j)
}

// lcsIndices marks in mark the indices of a that rouge-score's
// _backtrack_norec picks for one LCS of a and b (t filled with a and b):
// walking back from the bottom-right corner, a match is taken, otherwise
// it moves left only when the left cell is strictly greater than the
// upper one (ties move up).
func lcsIndices(t *lcsTable, a, b []int32, mark []bool) {
	i, j := len(a), len(b)
	cur := t.cell(i, j) // the cell at (i, j), kept up to date
	if cur == 0 {
		return // no common token
	}
	w := t.l.words
	for i > 0 && j > 0 {
		if a[i-1] == b[j-1] {
			mark[i-1] = true
			i--
			j--
			cur-- // a match cell is its upper-left neighbour plus one
			continue
		}
		// the cell to the left is one less unless bit j-1 of row i is set
		left := cur - 1 + int(t.rows[i*w+(j-1)/64]>>(uint(j-1)%64)&1)
		up := t.cell(i-1, j)
		if left > up {
			j--
			cur = left
		} else {
			i--
			cur = up
		}
	}
}

// lcsIndices64 is lcsIndices for a b of at most 64 tokens, whose rows are
// single words: it fills rows (2·(len(a)+1) words: row i's vector, then
// the match mask of a[i-1] against b) from b's match masks l and marks
// a's indices of the LCS that rouge-score's backtrack picks.
func lcsIndices64(a, b []int32, l *bitLCS, rows []uint64, mark []bool) {
	v := ^uint64(0)
	rows[0], rows[1] = v, 0
	for i, y := range a {
		var m uint64
		if y <= l.maxID && l.row[y] != 0 {
			m = l.masks[l.row[y]-1]
			u := v & m
			v = (v + u) | (v &^ u)
		}
		rows[2*i+2], rows[2*i+3] = v, m
	}
	// cell(i, j) is j minus the ones among the first j bits of row i.
	// Off a match, a cell is the larger of its upper and left neighbours,
	// which differ from it by at most one: the backtrack moves up (ties
	// move up) exactly when the upper cell equals it, else left, to a cell
	// equal to it. Moving left, the upper cells only shrink, so the moves
	// left go on to the next match of a[i-1] in b, found at once from the
	// match mask. Once the cell is 0 no match is left.
	i, j := len(a), len(b)
	lowJ := ^uint64(0) >> uint(64-j) // the first j bits
	cur := j - bits.OnesCount64(rows[2*i]&lowJ)
	for cur > 0 {
		m := rows[2*i+1]
		switch {
		case m>>uint(j-1)&1 != 0: // a[i-1] == b[j-1]
			mark[i-1] = true
			i--
			j--
			cur--
			lowJ >>= 1
		case j-bits.OnesCount64(rows[2*i-2]&lowJ) == cur:
			i--
		default:
			j = bits.Len64(m & lowJ)
			lowJ = ^uint64(0) >> uint(64-j)
		}
	}
}
