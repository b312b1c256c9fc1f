package rouge

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

// lcsLength computes the LCS length with two rows of the DP table.
func lcsLength(a, b []int32) int {
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for i := range a {
		ai := a[i]
		for j := range b {
			if ai == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
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
