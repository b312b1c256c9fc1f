// Package ngram numbers the tokens of texts, two tokens getting the same
// number exactly when they are equal, and counts the n-grams texts share
// (Overlap), so that the text metrics compare tokens and n-grams as
// integers.
package ngram

// Vocabulary numbers tokens: each new token gets the next number, from 0.
// The zero value is ready to use.
type Vocabulary struct {
	ids  map[string]int32
	toks []string // by number
}

// ID returns the number of tok, numbering it when it is new.
func (v *Vocabulary) ID(tok string) int32 {
	id, ok := v.ids[tok]
	if !ok {
		if v.ids == nil {
			v.ids = make(map[string]int32)
		}
		id = int32(len(v.toks))
		v.ids[tok] = id
		v.toks = append(v.toks, tok)
	}
	return id
}

// Tokens returns the numbered tokens, each at its number.
func (v *Vocabulary) Tokens() []string { return v.toks }

// IDs returns the numbers of toks.
func (v *Vocabulary) IDs(toks []string) []int32 {
	return v.AppendIDs(make([]int32, 0, len(toks)), toks)
}

// AppendIDs appends the numbers of toks to dst and returns the result.
// A new vocabulary is sized for toks: none of its tokens makes it grow.
func (v *Vocabulary) AppendIDs(dst []int32, toks []string) []int32 {
	if v.ids == nil { // room for every token: no growth
		v.ids = make(map[string]int32, len(toks))
		v.toks = make([]string, 0, len(toks))
	}
	for _, t := range toks {
		dst = append(dst, v.ID(t))
	}
	return dst
}

// Len returns how many tokens are numbered: every number is below it.
func (v *Vocabulary) Len() int { return len(v.toks) }

// Overlap returns, for n = 1 to maxN, how many n-grams of hyp match
// n-grams of refs, each distinct n-gram up to its highest count in one of
// refs (the clipped overlap of BLEU and ROUGE-N): overlap[n-1] holds
// order n. Tokens are numbers below size.
//
// Order by order, the references' n-grams are numbered in a map and the
// hypothesis's looked up in it (extend), then counted (clip).
func Overlap(hyp []int32, refs [][]int32, size, maxN int) []int {
	total := 0 // the references' tokens
	for _, r := range refs {
		total += len(r)
	}
	h, cur := hyp, refs // the n-grams of the order at hand
	var ids map[[2]int32]int32
	m := size     // every number is below it
	if maxN > 1 { // the numbers of higher orders are written over copies of the tokens
		m = max(size, total)
		ids = make(map[[2]int32]int32, total) // numbers of one order, by (prefix, last token)
		grams := make([]int32, total+len(hyp))
		h, cur = grams[total:], make([][]int32, len(refs))
		copy(h, hyp)
		for k, r := range refs {
			cur[k], grams = grams[:len(r):len(r)], grams[len(r):]
			copy(cur[k], r)
		}
	}
	counts := make([]int32, 2*m) // the highest count in one reference, then counts in one reference
	overlap := make([]int, maxN)
	for n := 1; n <= maxN; n++ {
		if n > 1 {
			extend(ids, h, hyp, cur, refs, n)
		}
		overlap[n-1] = clip(counts[:m], counts[m:], h[:max(len(hyp)-n+1, 0)], cur, n, n < maxN)
	}
	return overlap
}

// extend replaces the (n-1)-grams of the references (cur, of the tokens
// refs) and of the hypothesis (h, of the tokens hyp) with their n-grams:
// the n-gram at token i is the (n-1)-gram at i followed by token i+n-1, so
// that pair of numbers decides its number. The references' n-grams are
// numbered in ids; the hypothesis's are looked up, none (-1) when no
// reference has them, without a lookup when their prefix or suffix is
// none.
func extend(ids map[[2]int32]int32, h, hyp []int32, cur, refs [][]int32, n int) {
	clear(ids)
	for k, r := range refs {
		for i := 0; i+n <= len(r); i++ {
			key := [2]int32{cur[k][i], r[i+n-1]}
			id, ok := ids[key]
			if !ok {
				id = int32(len(ids))
				ids[key] = id
			}
			cur[k][i] = id
		}
	}
	for i := 0; i+n <= len(hyp); i++ {
		id, ok := int32(-1), false
		if h[i] >= 0 && h[i+1] >= 0 {
			id, ok = ids[[2]int32{h[i], hyp[i+n-1]}]
		}
		if !ok {
			id = -1
		}
		h[i] = id
	}
}

// clip counts the n-grams of hn (numbers, -1 for none) that find a count
// left in most, set to the highest count of each n-gram in one of the
// references (cur), using up one count each. count is scratch space for
// one reference's counts, all zero before and after. With mark, an n-gram
// of hn that no reference has becomes none, so that no longer n-gram
// built on it is looked up.
func clip(most, count, hn []int32, cur [][]int32, n int, mark bool) int {
	clear(most)
	for _, c := range cur {
		c = c[:max(len(c)-n+1, 0)]
		for _, g := range c {
			count[g]++
		}
		for _, g := range c {
			most[g] = max(most[g], count[g])
			count[g] = 0
		}
	}
	if mark {
		for i, g := range hn {
			if g >= 0 && most[g] == 0 {
				hn[i] = -1
			}
		}
	}
	matched := 0
	for _, g := range hn {
		if g >= 0 && most[g] > 0 {
			most[g]--
			matched++
		}
	}
	return matched
}
