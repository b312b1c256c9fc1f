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
// the texts' lines (Pair.lines). The unions are gathered one prediction
// sentence at a time, for every target sentence, so that which tokens a
// prediction sentence has is marked once.
func scoreLsum(target, prediction [][]int32, size int) Score {
	m, n := 0, 0
	cnt := make([]int, 2*size) // the counts of each side by token number, allocated once
	cntT, cntP := cnt[:size:size], cnt[size:]
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
	l := longest(target)
	table := make([]int32, (l+2)*(longest(prediction)+1)) // room for every table
	union := make([]bool, m)                              // the union of each target sentence, one after another
	mark := make([]bool, 0, l)                            // one LCS of the tokens of r that c has
	kept := make([]int32, 0, l)                           // the tokens of r that c has
	at := make([]int, 0, l)                               // where they are in union
	seen := make([]bool, size)                            // seen[id] when c has token id
	for _, c := range prediction {
		for _, id := range c {
			seen[id] = true
		}
		start := 0 // where r's tokens are in union
		for _, r := range target {
			// A token of r that c lacks matches no cell: its row of the
			// table repeats the row above, and the walk of markLCS only
			// steps up through it. Leaving such tokens out marks the
			// same tokens.
			kept, at = kept[:0], at[:0]
			for i, id := range r {
				if seen[id] {
					kept, at = append(kept, id), append(at, start+i)
				}
			}
			mark = mark[:len(kept)]
			clear(mark)
			table = lcsTable(table, kept, c)
			markLCS(table, kept, c, mark)
			for i, m := range mark {
				if m {
					union[at[i]] = true
				}
			}
			start += len(r)
		}
		for _, id := range c {
			seen[id] = false
		}
	}
	// The union of each target sentence, in order, scores its tokens
	// while both budgets allow.
	hits, i := 0, 0
	for _, r := range target {
		for _, id := range r {
			if union[i] && cntT[id] > 0 && cntP[id] > 0 {
				hits++
				cntT[id]--
				cntP[id]--
			}
			i++
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}

// longest is the length of the longest of seqs.
func longest(seqs [][]int32) int {
	n := 0
	for _, s := range seqs {
		n = max(n, len(s))
	}
	return n
}
