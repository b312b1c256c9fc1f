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
	return v.AppendIDs(make([]int32, 0, len(toks)), toks)
}

// AppendIDs appends the numbers of toks to dst and returns the result.
// A new vocabulary is sized for toks: none of its tokens makes it grow.
func (v *Vocabulary) AppendIDs(dst []int32, toks []string) []int32 {
	if v.ids == nil {
		v.ids = make(map[string]int32, len(toks)) // room for every token: no growth
	}
	for _, t := range toks {
		dst = append(dst, v.ID(t))
	}
	return dst
}

// Len returns how many tokens are numbered: every number is below it.
func (v *Vocabulary) Len() int { return len(v.toks) }

// Order is the n-grams of one order of several token sequences, as
// numbers: equal n-grams, of any of the sequences, get equal numbers.
type Order struct {
	Seqs [][]int32 // Seqs[k][i] numbers the n-gram at token i of sequence k
	Size int       // every number is below it
}

// Grams numbers the n-grams of token sequences for n = 1 to maxN:
// grams[n-1] holds order n. seqs are token numbers below size, and are
// order 1. The (n+1)-gram at token i is the n-gram at i followed by
// token i+n, so that pair of numbers decides its number.
func Grams(seqs [][]int32, size, maxN int) (grams []Order) {
	grams = make([]Order, 0, maxN)
	grams = append(grams, Order{Seqs: seqs, Size: size})
	total := 0
	for _, s := range seqs {
		total += len(s)
	}
	if maxN < 2 {
		return grams
	}
	ids := make(map[[2]int32]int32, total) // numbers of one order, by (prefix, last token)
	// the n-grams of every order above 1, and the slices of them, each
	// allocated once
	room := 0
	for n := 1; n < maxN; n++ {
		for _, s := range seqs {
			room += max(len(s)-n, 0)
		}
	}
	flat := make([]int32, 0, room)
	heads := make([][]int32, (maxN-1)*len(seqs))
	for n := 1; n < maxN; n++ {
		prev := grams[n-1].Seqs
		next := heads[(n-1)*len(seqs) : n*len(seqs) : n*len(seqs)]
		if n > 1 { // a new map is empty
			clear(ids)
		}
		for k, s := range seqs {
			start := len(flat)
			for i := 0; i+n < len(s); i++ {
				key := [2]int32{prev[k][i], s[i+n]}
				id, ok := ids[key]
				if !ok {
					id = int32(len(ids))
					ids[key] = id
				}
				flat = append(flat, id)
			}
			next[k] = flat[start:len(flat):len(flat)]
		}
		grams = append(grams, Order{Seqs: next, Size: len(ids)})
	}
	return grams
}

// Counts returns how many times each number below size occurs in grams.
func Counts(grams []int32, size int) []int32 {
	c := make([]int32, size)
	for _, g := range grams {
		c[g]++
	}
	return c
}

// Take counts the grams that find a count left in left, using up one
// count each: the clipped overlap of grams with the counts.
func Take(left []int32, grams []int32) int {
	n := 0
	for _, g := range grams {
		if left[g] > 0 {
			left[g]--
			n++
		}
	}
	return n
}
