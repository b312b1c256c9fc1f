package bleu

import "github.com/evalsidecar/evalsidecar/internal/intern"

// segment counts the n-grams of one segment: its tokens are numbered in
// vocab and its longer n-grams in grams (see numberGrams), so n-grams
// compare and count as integers. It is reused across segments.
type segment struct {
	vocab    intern.Strings
	grams    intern.Keys
	toks     []string // the tokens of the side being read
	ids      []int32
	refLens  []int
	gramIDs  []int32     // numberGrams' result
	unigrams []gramCount // by token number
	counts   []gramCount // by n-gram number, for orders 2 and up
	touched  []int32     // with several references: where in gramIDs each n-gram of the one being read first occurs
	refs     int
}

// gramCount is the counts of one n-gram.
type gramCount struct {
	refMax int32 // highest count in one reference
	cur    int32 // count in the reference being read
	hyp    int32 // count in the hypothesis so far
}

func (s *segment) reset(hypBytes int) {
	s.vocab.Reset(hypBytes / 8)
	s.grams.Reset(hypBytes / 2)
	s.refLens = s.refLens[:0]
	s.unigrams = s.unigrams[:0]
	s.counts = s.counts[:0]
	s.refs = 0
}

// release drops the segment's references to the texts it read.
func (s *segment) release() {
	clear(s.toks)
	s.toks = s.toks[:0]
	s.vocab.Reset(0)
}

// words numbers toks in the segment's vocabulary.
func (s *segment) words(toks []string) []int32 {
	s.ids = s.ids[:0]
	for _, t := range toks {
		s.ids = append(s.ids, s.vocab.ID(t))
	}
	return s.ids
}

// numberGrams numbers every 1- to MaxOrder-gram of ids: entry
// i*MaxOrder+n of the result is the number of the (n+1)-gram starting at
// ids[i], or -1 past the end of ids. A unigram's number is its token's;
// longer n-grams are numbered in grams by the key of their first n tokens
// and their last token, where the key of a unigram is its token's number
// and that of a longer n-gram is its number bit-inverted (negative), so
// keys of different orders never meet.
func (s *segment) numberGrams(ids []int32) []int32 {
	s.gramIDs = s.gramIDs[:0]
	for i := range ids {
		key := ids[i]
		s.gramIDs = append(s.gramIDs, key)
		for n := 1; n < MaxOrder; n++ {
			g := int32(-1)
			if i+n < len(ids) {
				g = s.grams.ID(intern.Pair(key, ids[i+n]))
				key = ^g
			}
			s.gramIDs = append(s.gramIDs, g)
		}
	}
	if need := s.vocab.Len(); len(s.unigrams) < need {
		s.unigrams = append(s.unigrams, make([]gramCount, need-len(s.unigrams))...)
	}
	if need := s.grams.Len(); len(s.counts) < need {
		s.counts = append(s.counts, make([]gramCount, need-len(s.counts))...)
	}
	return s.gramIDs
}

// count returns the counts of entry k of numberGrams' result, numbered g.
func (s *segment) count(k int, g int32) *gramCount {
	if k%MaxOrder == 0 {
		return &s.unigrams[g]
	}
	return &s.counts[g]
}

// addRef counts the n-grams of one reference, keeping each n-gram's
// highest count in one reference.
func (s *segment) addRef(toks []string) {
	ids := s.words(toks)
	s.refLens = append(s.refLens, len(ids))
	s.refs++
	gs := s.numberGrams(ids)
	if s.refs == 1 {
		for k, g := range gs {
			if g >= 0 {
				s.count(k, g).refMax++
			}
		}
		return
	}
	s.touched = s.touched[:0]
	for k, g := range gs {
		if g < 0 {
			continue
		}
		c := s.count(k, g)
		if c.cur == 0 {
			s.touched = append(s.touched, int32(k))
		}
		c.cur++
	}
	for _, k := range s.touched {
		c := s.count(int(k), gs[k])
		c.refMax = max(c.refMax, c.cur)
		c.cur = 0
	}
}

// countHyp adds the hypothesis n-gram totals and clipped matches to st: a
// hypothesis n-gram's k-th occurrence matches while k is at most its
// highest count in one reference.
func (s *segment) countHyp(st *Stats, h []int32) {
	for k, g := range s.numberGrams(h) {
		if g < 0 {
			continue
		}
		n := k % MaxOrder
		c := s.count(k, g)
		st.Total[n]++
		if c.hyp < c.refMax {
			st.Correct[n]++
		}
		c.hyp++
	}
}
