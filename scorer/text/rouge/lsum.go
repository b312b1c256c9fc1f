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
	hits := 0
	l := longest(target)
	table := make([]int32, (l+2)*(longest(prediction)+1)) // room for every table
	union := make([]bool, 0, l)                           // the union of each target sentence in turn
	mark := make([]bool, 0, l)                            // one LCS of the tokens of r that c has
	kept := make([]int32, 0, l)                           // the tokens of r that c has
	at := make([]int, 0, l)                               // where they are in r
	seen := make([]int32, size)                           // seen[id] == pass when c has token id
	pass := int32(0)
	for _, r := range target {
		union = union[:len(r)]
		clear(union)
		for _, c := range prediction {
			// A token of r that c lacks matches no cell: its row of the
			// table repeats the row above, and the walk of markLCS only
			// steps up through it. Leaving such tokens out marks the
			// same tokens.
			pass++
			for _, id := range c {
				seen[id] = pass
			}
			kept, at = kept[:0], at[:0]
			for i, id := range r {
				if seen[id] == pass {
					kept, at = append(kept, id), append(at, i)
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

// longest is the length of the longest of seqs.
func longest(seqs [][]int32) int {
	n := 0
	for _, s := range seqs {
		n = max(n, len(s))
	}
	return n
}
