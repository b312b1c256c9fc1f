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
// hypothesis's looked up in it: the n-gram at token i is the (n-1)-gram
// at i followed by token i+n-1, so that pair of numbers decides its
// number. A hypothesis n-gram whose prefix or suffix no reference has is
// none (-1), without a lookup.
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
	counts := make([]int32, 2*m)
	most := counts[:m]  // the highest count in one reference not yet matched
	count := counts[m:] // counts in the reference at hand
	overlap := make([]int, maxN)
	for n := 1; n <= maxN; n++ {
		if n > 1 {
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
		hn := h[:max(len(hyp)-n+1, 0)]
		if n < maxN { // h is a copy: an n-gram no reference has is none
			for i, g := range hn {
				if g >= 0 && most[g] == 0 {
					hn[i] = -1
				}
			}
		}
		for _, g := range hn {
			if g >= 0 && most[g] > 0 {
				most[g]--
				overlap[n-1]++
			}
		}
	}
	return overlap
}
