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
// the last cell of rouge-score's _lcs_table, filled two rows at a time
// (lcsRows) in three rows used in turn.
func lcsLength(a, b []int32) int {
	w := len(b) + 1
	rows := make([]int32, 3*w) // the three rows, allocated once
	up, mid, low := rows[:w:w], rows[w:2*w:2*w], rows[2*w:]
	for i := 0; i < len(a); i += 2 {
		lcsRows(up, mid, low, a[i], tokenAt(a, i+1), b)
		up, low = low, up
	}
	return int(up[len(b)])
}

// lcsTable fills the dynamic-programming table of rouge-score's
// _lcs_table for a and b: cell (i, j), at i*(len(b)+1)+j, is the LCS
// length of the first i tokens of a and the first j of b. It is written
// in t, grown when short, and returned; rows are filled two at a time
// (lcsRows), and after an odd-length a one more repeats the last.
func lcsTable(t []int32, a, b []int32) []int32 {
	w := len(b) + 1
	n := (len(a) + 2) * w
	if cap(t) < n {
		t = make([]int32, n)
	}
	t = t[:n]
	clear(t[:w])
	for i := 0; i < len(a); i += 2 {
		lcsRows(t[i*w:], t[(i+1)*w:], t[(i+2)*w:], a[i], tokenAt(a, i+1), b)
	}
	return t
}

// tokenAt returns a[i], or -1, which equals no token, past the end of a.
func tokenAt(a []int32, i int) int32 {
	if i < len(a) {
		return a[i]
	}
	return -1
}

// lcsRows fills the table rows (len(b)+1 cells) of two successive
// tokens x and y of a: mid from up, the row before x, and low from mid.
// Cell 0 is 0; cell j+1 is the cell above-left plus 1 when the token
// equals b[j], else the larger of the cells above and to the left. The
// cell above-left plus 1 is never below those two (neighbouring cells
// differ by at most 1), so each cell is the larger of its left neighbour
// and a value that does not depend on it, and the two rows are computed
// side by side.
func lcsRows(up, mid, low []int32, x, y int32, b []int32) {
	n := len(b)
	mid[0], low[0] = 0, 0
	// cells 1 to n of each row, and of up the cells above-left of them
	diag, up, mid, low := up[:n], up[1:n+1], mid[1:n+1], low[1:n+1]
	// the cells left in mid and in low (above-left in low is left in
	// mid); above-left in mid is diag[j]
	var midLeft, lowLeft int32
	for j, z := range b {
		m := up[j]
		if x == z {
			m = diag[j] + 1
		}
		m = max(m, midLeft)
		l := m
		if y == z {
			l = midLeft + 1
		}
		l = max(l, lowLeft)
		mid[j], low[j] = m, l
		midLeft, lowLeft = m, l
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
