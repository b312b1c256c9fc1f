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
// the last cell of rouge-score's _lcs_table, filled one row at a time.
func lcsLength(a, b []int32) int {
	up, row := make([]int32, len(b)+1), make([]int32, len(b)+1)
	for _, x := range a {
		up, row := up[:len(b)+1], row[:len(b)+1] // fewer bounds checks in the loop
		for j, y := range b {
			if x == y {
				row[j+1] = up[j] + 1
			} else {
				row[j+1] = max(up[j+1], row[j])
			}
		}
		copy(up, row)
	}
	return int(up[len(b)])
}

// lcsTable fills the dynamic-programming table of rouge-score's
// _lcs_table for a and b: cell (i, j), at i*(len(b)+1)+j, is the LCS
// length of the first i tokens of a and the first j of b. It is written
// in t, grown when short, and returned. Row i+1 is computed from row i
// as lcsLength computes its rows.
func lcsTable(t []int32, a, b []int32) []int32 {
	w := len(b) + 1
	n := (len(a) + 1) * w
	if cap(t) < n {
		t = make([]int32, n)
	}
	t = t[:n]
	clear(t[:w])
	for i, x := range a {
		up, row := t[i*w:(i+1)*w], t[(i+1)*w:(i+2)*w]
		row[0] = 0
		for j, y := range b {
			if x == y {
				row[j+1] = up[j] + 1
			} else {
				row[j+1] = max(up[j+1], row[j])
			}
		}
	}
	return t
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
