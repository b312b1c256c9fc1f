package rouge

import "github.com/evalsidecar/evalsidecar/internal/intern"

// gramTable numbers the n-grams of a target for one n >= 2, chained as
// gramNumbers chains them: the key of an n-gram pairs the number of its
// first n-1 tokens' key (a token's own number for one token, a longer
// prefix's number bit-inverted) with its last token. Every prefix of a
// target n-gram is in the table, so a prediction n-gram is looked up one
// token at a time and missed at the first prefix the target lacks. It is
// only read once built, so concurrent lookups are safe.
type gramTable struct {
	keys   intern.Keys
	counts []int32 // target occurrences by key number; 0 for shorter prefixes
	total  int     // the target's n-gram count
}

// build numbers the n-grams of ids.
func (g *gramTable) build(ids []int32, n int) {
	g.total = max(len(ids)-n+1, 0)
	g.keys.Reset((n - 1) * g.total)
	grams := make([]int32, g.total)
	for i := range grams {
		k := ids[i]
		for d := 1; d < n; d++ {
			k = ^g.keys.ID(intern.Pair(k, ids[i+d]))
		}
		grams[i] = ^k
	}
	g.counts = make([]int32, g.keys.Len())
	for _, id := range grams {
		g.counts[id]++
	}
}

// lookup returns the number of the n-gram gram (n tokens), or -1 when the
// target does not have it; tokens numbered vocab or above are in no target
// n-gram.
func (g *gramTable) lookup(gram []int32, vocab int32) int32 {
	k := gram[0]
	if k >= vocab {
		return -1
	}
	for _, y := range gram[1:] {
		if y >= vocab {
			return -1
		}
		id, ok := g.keys.Lookup(intern.Pair(k, y))
		if !ok {
			return -1
		}
		k = ^id
	}
	return ^k
}
