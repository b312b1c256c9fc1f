// Package editdist is the Levenshtein edit distance, shared by the
// toolmatch metrics (argument similarity) and the configuration loader
// ("did you mean" for unknown keys).
package editdist

// Distance is the Levenshtein distance between a and b over code points:
// the fewest insertions, deletions and substitutions turning a into b.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Closest returns the candidate nearest to s, when it is within half of
// s's length (rounded up, at most 3 edits; a swap of two letters is 2) and
// no other candidate is as near; "" otherwise.
func Closest(s string, candidates []string) string {
	limit := min((len([]rune(s))+1)/2, 3)
	best, bestD, tie := "", limit+1, false
	for _, c := range candidates {
		switch d := Distance(s, c); {
		case d < bestD:
			best, bestD, tie = c, d, false
		case d == bestD:
			tie = true
		}
	}
	if tie || bestD > limit {
		return ""
	}
	return best
}
