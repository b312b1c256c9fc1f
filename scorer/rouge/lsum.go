package rouge

import "github.com/evalsidecar/evalsidecar/internal/intern"

// scoreLsum is rougeLsum, rouge-score's summary-level LCS, over the
// token lists of the sentences of both texts (numbered below vocab):
//
//   - the texts are split into sentences: on "\n" (empty pieces dropped),
//     or with SplitSentences when SplitSummaries is set; each sentence is
//     tokenized on its own;
//   - m and n are the total token counts of target and prediction; no
//     sentences or m = 0 or n = 0 gives 0;
//   - every token has a budget: its count on each side;
//   - for each target sentence r, the union of one LCS index set of r
//     against every prediction sentence is taken in index order, and each
//     of those tokens scores a hit while both budgets allow it;
//   - R = hits/m, P = hits/n.
//
// A sentence without tokens adds nothing to any of these, so the lists
// may leave such sentences out. sc is scratch space.
func scoreLsum(sc *scratch, ref, can [][]int32, vocab int) Score {
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
	budgets := make([]int32, 2*vocab)
	cntR, cntC := budgets[:vocab], budgets[vocab:]
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
	// the match masks of each prediction sentence serve every target
	// sentence
	if cap(sc.masks) < len(can) {
		sc.masks = make([]bitLCS, len(can))
	}
	masks := sc.masks[:len(can)]
	for k, c := range can {
		masks[k].init(c)
	}
	table := &sc.table
	var mark []bool
	var rows []uint64
	hits := 0
	for _, r := range ref {
		if cap(mark) < len(r) || rows == nil {
			mark = make([]bool, len(r))
			rows = make([]uint64, 2*(len(r)+1))
		}
		mark = mark[:len(r)]
		clear(mark)
		for k, c := range can {
			if len(c) <= 64 {
				lcsIndices64(r, c, &masks[k], rows, mark)
				continue
			}
			table.fillWith(r, &masks[k])
			lcsIndices(table, r, c, mark)
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

// scoreLsumSplit is rougeLsum with SplitSummaries: sentences from
// SplitSentences, each tokenized (and stemmed) on its own.
func (s *Scorer) scoreLsumSplit(target, prediction string) Score {
	sc := s.pool.get()
	defer s.pool.put(sc)
	v := &sc.words
	v.Reset((len(target) + len(prediction)) / 12)
	ref := s.sentenceIDs(v, target)
	can := s.sentenceIDs(v, prediction)
	vocab := v.Len()
	if s.opts.UseStemmer {
		words := make([]string, vocab)
		for id := range words {
			words[id] = v.String(int32(id))
		}
		var sv intern.Strings
		sv.Reset(vocab)
		remap := make([]int32, vocab)
		for u, st := range s.stems.stemAll(words) {
			remap[u] = -1
			if st != "" {
				remap[u] = sv.ID(st)
			}
		}
		for _, sents := range [][][]int32{ref, can} {
			for k, sent := range sents {
				out := sent[:0]
				for _, id := range sent {
					if r := remap[id]; r >= 0 {
						out = append(out, r)
					}
				}
				sents[k] = out
			}
		}
		vocab = sv.Len()
	}
	return scoreLsum(sc, ref, can, vocab)
}

// sentenceIDs splits text with SplitSentences and numbers each sentence's
// unstemmed tokens in v.
func (s *Scorer) sentenceIDs(v *intern.Strings, text string) [][]int32 {
	sents := SplitSentences(text)
	out := make([][]int32, 0, len(sents))
	var toks []string
	for _, sent := range sents {
		toks = appendTokens(toks[:0], sent, nil)
		ids := make([]int32, len(toks))
		for i, t := range toks {
			ids[i] = v.ID(t)
		}
		out = append(out, ids)
	}
	return out
}
