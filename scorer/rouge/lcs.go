package rouge

// scoreLCS is rouge-score's rougeL: the length of the longest common
// subsequence of the token lists, P = LCS / #prediction tokens and R =
// LCS / #target tokens (an empty side scores 0).
func scoreLCS(target, prediction []string) Score {
	if len(target) == 0 || len(prediction) == 0 {
		return Score{}
	}
	l := float64(lcsLength(target, prediction))
	return newScore(l/float64(len(prediction)), l/float64(len(target)))
}

// lcsLength is the length of the longest common subsequence of a and b:
// the last cell of rouge-score's _lcs_table, filled one row at a time.
func lcsLength(a, b []string) int {
	prev, cur := make([]int32, len(b)+1), make([]int32, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return int(prev[len(b)])
}

// lcsTable fills the dynamic-programming table of rouge-score's
// _lcs_table for a and b: cell (i, j), at i*(len(b)+1)+j, is the LCS
// length of the first i tokens of a and the first j of b. It is written
// in t, grown when short, and returned.
func lcsTable(t []int32, a, b []string) []int32 {
	w := len(b) + 1
	n := (len(a) + 1) * w
	if cap(t) < n {
		t = make([]int32, n)
	}
	t = t[:n]
	clear(t[:w])
	for i := 1; i <= len(a); i++ {
		up, row := t[(i-1)*w:i*w], t[i*w:(i+1)*w]
		row[0] = 0
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				row[j] = up[j-1] + 1
			} else {
				row[j] = max(up[j], row[j-1])
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
func markLCS(t []int32, a, b []string, mark []bool) {
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
