package extractor

// Hostile structure: parent links that form cycles are cut so that every
// span has a root, and spans whose parent never arrived are kept with the
// run when the trace has one.

// breakCycles cuts parent links that close a cycle (a span that is its own
// ancestor), in linear time: each span is walked up once. The span whose
// link closes the cycle becomes a root.
func (x *extraction) breakCycles() {
	const (
		unseen, walking, done = 0, 1, 2
	)
	state := x.cursor // scratch, one per span
	clear(state)
	for i := range x.parent {
		if state[i] != unseen {
			continue
		}
		cur := i
		for cur >= 0 && state[cur] == unseen {
			state[cur] = walking
			p := int(x.parent[cur])
			if p >= 0 && (p == cur || state[p] == walking) {
				x.parent[cur] = -1 // closes a cycle
				p = -1
			}
			cur = p
		}
		for cur = i; cur >= 0 && state[cur] == walking; cur = int(x.parent[cur]) {
			state[cur] = done
		}
	}
}

// orphansOf lists the model and tool spans whose parent is missing (or was
// cut from a cycle) and that are not runs, for the trace's only run.
func (x *extraction) orphansOf(runs []int) []int {
	if len(runs) != 1 {
		return nil
	}
	var out []int
	for i := range x.facts {
		c := x.facts[i].class
		if (c == classTool || c == classLLM) && x.parent[i] < 0 && x.t.spans[i].hasParent() {
			out = append(out, i)
		}
	}
	return out
}
