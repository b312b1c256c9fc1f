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
// Order by order, the references' n-grams are numbered and the
// hypothesis's looked up (see numbering), then counted. A hypothesis
// n-gram with a prefix or suffix no reference has is none without a
// lookup.
func Overlap(hyp []int32, refs [][]int32, size, maxN int) []int {
	total := 0 // the references' tokens
	for _, r := range refs {
		total += len(r)
	}
	h, cur := hyp, refs // the n-grams of the order at hand, the hypothesis's -1 when none
	var nb numbering
	m := size     // every number is below it
	if maxN > 1 { // the numbers of higher orders are written over copies of the tokens
		m = max(size, total)
		nb = numbering{ids: make(map[[2]int32]int32, total), last: make([]next, m)}
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
			nb.reset()
			for k, r := range refs {
				nb.references(cur[k], r, n)
			}
			nb.hypothesis(h, hyp, n)
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
		for _, g := range h[:max(len(hyp)-n+1, 0)] {
			if g >= 0 && most[g] > 0 {
				most[g]--
				overlap[n-1]++
			}
		}
	}
	return overlap
}

// numbering numbers the n-grams of one order: the n-gram at token i is
// the (n-1)-gram at i, its prefix, followed by token i+n-1, so that pair
// of numbers decides its number. Most prefixes begin one n-gram only: the
// n-gram each prefix last began is kept by the prefix, and the map holds
// the n-grams of the prefixes that began several, so that a map operation
// is needed only for those.
type numbering struct {
	ids  map[[2]int32]int32 // by (prefix, last token)
	last []next             // by prefix
	size int32              // how many numbers are given
}

// next is the n-gram that a prefix last began: its last token (-1: none
// yet) and its number; several when the prefix began several, all in ids.
type next struct {
	tok, id int32
	several bool
}

// reset forgets every number, for the next order.
func (nb *numbering) reset() {
	clear(nb.ids)
	for p := range nb.last {
		nb.last[p] = next{tok: -1}
	}
	nb.size = 0
}

// references replaces, in grams, the (n-1)-grams of the reference toks
// with its n-grams, numbering the new ones.
func (nb *numbering) references(grams, toks []int32, n int) {
	for i := 0; i+n <= len(toks); i++ {
		p, t := grams[i], toks[i+n-1]
		switch last := nb.last[p]; {
		case last.tok == t:
			grams[i] = last.id
		case last.tok < 0: // p's first n-gram
			grams[i], nb.last[p] = nb.size, next{t, nb.size, false}
			nb.size++
		default:
			if !last.several { // p's first n-gram joins the map
				nb.ids[[2]int32{p, last.tok}] = last.id
			}
			id, ok := nb.ids[[2]int32{p, t}]
			if !ok {
				id = nb.size
				nb.size++
				nb.ids[[2]int32{p, t}] = id
			}
			grams[i], nb.last[p] = id, next{t, id, true}
		}
	}
}

// hypothesis replaces, in grams, the (n-1)-grams of the hypothesis toks
// with the numbers of its n-grams, none (-1) for an n-gram no reference
// has: one whose prefix or suffix is none needs no lookup.
func (nb *numbering) hypothesis(grams, toks []int32, n int) {
	for i := 0; i+n <= len(toks); i++ {
		p, t := grams[i], toks[i+n-1]
		if p < 0 || grams[i+1] < 0 {
			grams[i] = -1
			continue
		}
		switch last := nb.last[p]; {
		case last.tok == t:
			grams[i] = last.id
		case !last.several: // p began one n-gram, not this one, or none
			grams[i] = -1
		default:
			id, ok := nb.ids[[2]int32{p, t}]
			if !ok {
				id = -1
			} else {
				nb.last[p] = next{t, id, true}
			}
			grams[i] = id
		}
	}
}
