package rouge

// scoreLsum is rouge-score's summary-level LCS (_summary_level_lcs):
//
//   - m and n are the total token counts of target and prediction; no
//     sentences or m = 0 or n = 0 gives 0;
//   - every token has a budget: its count on each side;
//   - for each target sentence r, the union of one LCS index set of r
//     against every prediction sentence (_union_lcs) is taken in index
//     order, and each of those tokens scores a hit while both budgets
//     allow it;
//   - R = hits/m, P = hits/n.
//
// Sentences are token numbers below size; rouge-score's sentences are
// the texts' lines (Pair.lines).
func scoreLsum(target, prediction [][]int32, size int) Score {
	m, n := 0, 0
	cntT, cntP := make([]int, size), make([]int, size) // by token number
	for _, r := range target {
		m += len(r)
		for _, id := range r {
			cntT[id]++
		}
	}
	for _, c := range prediction {
		n += len(c)
		for _, id := range c {
			cntP[id]++
		}
	}
	if m == 0 || n == 0 {
		return Score{}
	}
	hits := 0
	var table []int32
	for _, r := range target {
		union := make([]bool, len(r))
		for _, c := range prediction {
			table = lcsTable(table, r, c)
			markLCS(table, r, c, union)
		}
		for i, id := range r {
			if union[i] && cntT[id] > 0 && cntP[id] > 0 {
				hits++
				cntT[id]--
				cntP[id]--
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}
