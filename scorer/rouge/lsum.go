package rouge

import "strings"

// scoreLsum is rougeLsum, rouge-score's summary-level LCS:
//
//   - both texts are split into sentences: on "\n" (empty pieces dropped),
//     or with SplitSentences when SplitSummaries is set;
//   - each sentence is tokenized on its own; m and n are the total token
//     counts of target and prediction; no sentences or m = 0 or n = 0
//     gives 0;
//   - every token has a budget: its count on each side;
//   - for each target sentence r, the union of one LCS index set of r
//     against every prediction sentence is taken in index order, and each
//     of those tokens scores a hit while both budgets allow it;
//   - R = hits/m, P = hits/n.
func (s *Scorer) scoreLsum(target, prediction string) Score {
	v := newVocab()
	st := newStems(s.opts.UseStemmer)
	ref := s.sentenceIDs(v, st, target)
	can := s.sentenceIDs(v, st, prediction)
	if len(ref) == 0 || len(can) == 0 {
		return Score{}
	}
	m, n := 0, 0
	for _, r := range ref {
		m += len(r)
	}
	for _, c := range can {
		n += len(c)
	}
	if m == 0 || n == 0 {
		return Score{}
	}
	size := len(v.m)
	budgets := make([]int32, 2*size)
	cntR, cntC := budgets[:size], budgets[size:]
	for _, r := range ref {
		for _, id := range r {
			cntR[id]++
		}
	}
	for _, c := range can {
		for _, id := range c {
			cntC[id]++
		}
	}
	var table lcsTable
	var mark []bool
	hits := 0
	for _, r := range ref {
		if cap(mark) < len(r) {
			mark = make([]bool, len(r))
		}
		mark = mark[:len(r)]
		clear(mark)
		for _, c := range can {
			table.fill(r, c)
			lcsIndices(&table, r, c, mark)
		}
		for i, ok := range mark {
			if !ok {
				continue
			}
			if id := r[i]; cntC[id] > 0 && cntR[id] > 0 {
				hits++
				cntC[id]--
				cntR[id]--
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}

// sentenceIDs splits text into sentences and tokenizes each.
// st stems the tokens (nil: no stemming).
func (s *Scorer) sentenceIDs(v *vocab, st stems, text string) [][]int32 {
	var sents []string
	if s.opts.SplitSummaries {
		sents = SplitSentences(text)
	} else {
		sents = strings.Split(text, "\n")
	}
	out := make([][]int32, 0, len(sents))
	var toks []string
	for _, sent := range sents {
		if sent == "" {
			continue
		}
		toks = appendTokens(toks[:0], sent, st)
		out = append(out, v.ids(toks))
	}
	return out
}
