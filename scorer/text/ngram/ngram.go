// Package ngram numbers the tokens and n-grams of texts, so that the text
// metrics count and compare n-grams as integers: two tokens, or two
// n-grams, get the same number exactly when they are equal.
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
	out := make([]int32, len(toks))
	for i, t := range toks {
		out[i] = v.ID(t)
	}
	return out
}

// Len returns how many tokens are numbered: every number is below it.
func (v *Vocabulary) Len() int { return len(v.toks) }

// Longer numbers the (n+1)-grams of token sequences from the numbers of
// their n-grams. seqs[k] is a sequence of token numbers and grams[k] the
// numbers of its n-grams (grams[k][i] numbers seqs[k][i:i+n]); the
// result's [k][i] numbers seqs[k][i:i+n+1], the n-gram at i followed by
// token i+n, so that pair decides the number. The numbers are shared by
// all the sequences, from 0 to size-1. With n = 1, grams are the
// sequences themselves.
func Longer(seqs, grams [][]int32, n int) (longer [][]int32, size int) {
	total := 0
	for _, s := range seqs {
		total += max(len(s)-n, 0)
	}
	ids := make(map[[2]int32]int32, total)
	longer = make([][]int32, len(seqs))
	for k, s := range seqs {
		out := make([]int32, 0, max(len(s)-n, 0))
		for i := 0; i+n < len(s); i++ {
			key := [2]int32{grams[k][i], s[i+n]}
			id, ok := ids[key]
			if !ok {
				id = int32(len(ids))
				ids[key] = id
			}
			out = append(out, id)
		}
		longer[k] = out
	}
	return longer, len(ids)
}

// Counts returns how many times each number below size occurs in grams.
func Counts(grams []int32, size int) []int32 {
	c := make([]int32, size)
	for _, g := range grams {
		c[g]++
	}
	return c
}
