package judgemetric

// MatchRubrics maps the rubric texts a judge answer names, in answer
// order, to the rubrics asked about: out[k] is the index in rubrics of
// answered[k], or -1 when it matches none. norm is the comparison key of
// a text (case and spacing folded).
//
// A text equal (by norm) to a rubric's matches it. Judges often
// paraphrase a rubric while answering the rubrics in the order given, so
// an answered text that matches no rubric is matched by position: to the
// rubric at its own index when that rubric is not matched otherwise,
// else, when as many answered texts as rubrics are left unmatched, to
// those rubrics in order. A text that still matches nothing (an extra
// entry) is -1.
func MatchRubrics(rubrics, answered []string, norm func(string) string) []int {
	index := make(map[string]int, len(rubrics))
	for i, r := range rubrics {
		if _, dup := index[norm(r)]; !dup {
			index[norm(r)] = i
		}
	}
	out := make([]int, len(answered))
	taken := make([]bool, len(rubrics))
	var loose []int // answered entries that match no rubric's text
	for k, a := range answered {
		if i, ok := index[norm(a)]; ok {
			out[k] = i
			taken[i] = true
			continue
		}
		out[k] = -1
		loose = append(loose, k)
	}
	var left []int // rubrics no text matched
	for i, t := range taken {
		if !t {
			left = append(left, i)
		}
	}
	if len(loose) == 0 || len(left) == 0 {
		return out
	}
	if len(loose) == len(left) {
		for j, k := range loose {
			out[k] = left[j]
		}
		return out
	}
	for _, k := range loose {
		if k < len(rubrics) && !taken[k] {
			out[k] = k
			taken[k] = true
		}
	}
	return out
}
