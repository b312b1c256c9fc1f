package rouge

import "math/bits"

// scoreLCS is rougeL: the longest common subsequence of the whole token
// lists (newlines are ordinary separators). Either side empty gives 0.
// P = LCS/len(pred), R = LCS/len(target).
func scoreLCS(target, pred []int32) Score {
	if len(target) == 0 || len(pred) == 0 {
		return Score{}
	}
	l := lcsLength(target, pred)
	return newScore(float64(l)/float64(len(pred)), float64(l)/float64(len(target)))
}

// lcsLength computes the LCS length bit-parallel (Allison-Dix, in
// Hyyrö's formulation): the shorter list's positions are bits of a vector
// V, initially all ones; each token y of the longer list, with M the
// positions holding y, steps V to (V + (V & M)) | (V &^ M), adding with
// carry across 64-bit words. The LCS length is the number of zero bits
// among the shorter list's positions. It costs len(b)·⌈len(a)/64⌉ word
// steps instead of the DP's len(a)·len(b) cells, with the same result
// (the DP, lcsLengthDP in the tests, is the oracle).
func lcsLength(a, b []int32) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return 0
	}
	words := (len(a) + 63) / 64
	var maxID int32
	for _, x := range a {
		if x > maxID {
			maxID = x
		}
	}
	// row[id] is 1 + the index of id's match mask, or 0 when id is not in a.
	row := make([]int32, int(maxID)+1)
	rows := 0
	for _, x := range a {
		if x >= 0 && row[x] == 0 {
			rows++
			row[x] = int32(rows)
		}
	}
	buf := make([]uint64, (rows+1)*words)
	v, masks := buf[:words], buf[words:]
	for i, x := range a {
		if x >= 0 {
			masks[int(row[x]-1)*words+i/64] |= 1 << (uint(i) % 64)
		}
	}
	for k := range v {
		v[k] = ^uint64(0)
	}
	for _, y := range b {
		if y < 0 || y > maxID || row[y] == 0 {
			continue // no match: V is unchanged
		}
		m := masks[int(row[y]-1)*words : int(row[y])*words]
		var carry uint64
		for k, vk := range v {
			u := vk & m[k]
			var sum uint64
			sum, carry = bits.Add64(vk, u, carry)
			v[k] = sum | (vk &^ u)
		}
	}
	ones := 0
	for k, vk := range v {
		if k == words-1 && len(a)%64 != 0 {
			vk &= 1<<(uint(len(a))%64) - 1
		}
		ones += bits.OnesCount64(vk)
	}
	return len(a) - ones
}

// lcsTable fills the full (len(a)+1)×(len(b)+1) LCS table into t (reused
// when large enough) and returns it with its row width.
func lcsTable(t []int32, a, b []int32) ([]int32, int) {
	w := len(b) + 1
	size := (len(a) + 1) * w
	if cap(t) < size {
		t = make([]int32, size)
	}
	t = t[:size]
	for j := 0; j < w; j++ {
		t[j] = 0
	}
	for i := 1; i <= len(a); i++ {
		row, up := t[i*w:(i+1)*w], t[(i-1)*w:i*w]
		row[0] = 0
		ai := a[i-1]
		for j := 1; j < w; j++ {
			if ai == b[j-1] {
				row[j] = up[j-1] + 1
			} else {
				row[j] = max(up[j], row[j-1])
			}
		}
	}
	return t, w
}

// lcsIndices marks in mark the indices of a that rouge-score's
// _backtrack_norec picks for one LCS of a and b: walking back from the
// bottom-right corner, a match is taken, otherwise it moves left only
// when the left cell is strictly greater than the upper one (ties move
// up).
func lcsIndices(t []int32, w int, a, b []int32, mark []bool) {
	i, j := len(a), len(b)
	for i > 0 && j > 0 {
		switch {
		case a[i-1] == b[j-1]:
			mark[i-1] = true
			i--
			j--
		case t[i*w+j-1] > t[(i-1)*w+j]:
			j--
		default:
			i--
		}
	}
}
