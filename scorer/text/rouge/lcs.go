package rouge

// scoreLCS is rouge-score's rougeL: the length of the longest common
// subsequence of the token lists, P = LCS / #prediction tokens and R =
// LCS / #target tokens (an empty side scores 0).
func scoreLCS(target, prediction []int32) Score {
	if len(target) == 0 || len(prediction) == 0 {
		return Score{}
	}
	l := float64(lcsLength(target, prediction))
	return newScore(l/float64(len(prediction)), l/float64(len(target)))
}

// lcsLength is the length of the longest common subsequence of a and b:
// the last cell of rouge-score's _lcs_table, filled one row at a time
// (lcsRow) in two rows used in turn.
func lcsLength(a, b []int32) int {
	up, row := make([]int32, len(b)+1), make([]int32, len(b)+1)
	for _, x := range a {
		lcsRow(up, row, x, b)
		up, row = row, up
	}
	return int(up[len(b)])
}

// lcsTable fills the dynamic-programming table of rouge-score's
// _lcs_table for a and b: cell (i, j), at i*(len(b)+1)+j, is the LCS
// length of the first i tokens of a and the first j of b. It is written
// in t, grown when short, and returned. Row i+1 is computed from row i
// by lcsRow.
func lcsTable(t []int32, a, b []int32) []int32 {
	w := len(b) + 1
	n := (len(a) + 1) * w
	if cap(t) < n {
		t = make([]int32, n)
	}
	t = t[:n]
	clear(t[:w])
	for i, x := range a {
		lcsRow(t[i*w:(i+1)*w], t[(i+1)*w:(i+2)*w], x, b)
	}
	return t
}

// lcsRow fills row, the table row of a token x of a, from up, the row
// before it: row[0] is 0, and row[j+1] is up[j]+1 when x equals b[j],
// else the larger of up[j+1] and row[j]. up and row hold len(b)+1
// cells. On a match up[j]+1 is at least up[j+1] and row[j] (a cell
// exceeds its upper and left neighbours by at most 1), so every cell is
// the larger of row[j] and a value that does not depend on it: each cell
// waits for the one to its left by a single comparison. The cells to the
// left and above-left are carried in variables.
func lcsRow(up, row []int32, x int32, b []int32) {
	up, row = up[1:len(b)+1], row[:len(b)+1]
	row[0] = 0
	row = row[1:]
	left, diag := int32(0), int32(0) // row[j] and up[j] in the terms above
	for j, y := range b {
		above := up[j]
		v := above
		if x == y {
			v = diag + 1
		}
		v = max(v, left)
		row[j] = v
		left, diag = v, above
	}
}

// markLCS marks in mark the indices of a on one longest common
// subsequence of a and b, whose table (lcsTable) is t: the one
// rouge-score's _backtrack_norec walks back from the end of the table,
// taking a match, else stepping left when that cell is strictly larger,
// up otherwise.
func markLCS(t []int32, a, b []int32, mark []bool) {
	w := len(b) + 1
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
