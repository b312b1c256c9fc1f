package rouge

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/text/ngram"
)

// sentenceIDs returns the token numbers of each sentence of target and of
// prediction, numbered with one vocabulary, as rouge-score's rougeLsum
// reads the texts: split on "\n" (or with SplitSentences when
// SplitSummaries is set), empty pieces dropped, each sentence tokenized
// on its own; size is how many numbers they use.
func (s *Scorer) sentenceIDs(target, prediction string) (t, p [][]int32, size int) {
	var v ngram.Vocabulary
	t, p = s.sentences(&v, target), s.sentences(&v, prediction)
	if !s.opts.UseStemmer {
		return t, p, v.Len()
	}
	ids, stems := stemNumbers(v.Tokens())
	for _, sents := range [][][]int32{t, p} {
		for k := range sents {
			sents[k] = renumber(sents[k], ids)
		}
	}
	return t, p, len(stems)
}

// sentences returns the word numbers of each sentence of text.
func (s *Scorer) sentences(v *ngram.Vocabulary, text string) [][]int32 {
	var sents []string
	if s.opts.SplitSummaries {
		sents = SplitSentences(text)
	} else {
		sents = strings.Split(text, "\n")
	}
	out := make([][]int32, 0, len(sents))
	for _, sent := range sents {
		if sent != "" {
			out = append(out, v.IDs(words(sent)))
		}
	}
	return out
}

// scoreLsum is rouge-score's summary-level LCS (_summary_level_lcs):
//
//   - m and n are the total token counts of target and prediction; no
//     sentences or m = 0 or n = 0 gives 0;
//   - every token has a budget: its count on each side;
//   - for each target sentence r, the union of one LCS index set of r
//     against every prediction sentence (_union_lcs) is taken in index
//     order, and each of those tokens scores a hit while both budgets
//     allow it;
//   - R = hits/m, P = hits/n.
//
// Sentences are token numbers below size.
func scoreLsum(target, prediction [][]int32, size int) Score {
	m, n := 0, 0
	cntT, cntP := make([]int, size), make([]int, size) // by token number
	for _, r := range target {
		m += len(r)
		for _, id := range r {
			cntT[id]++
		}
	}
	for _, c := range prediction {
		n += len(c)
		for _, id := range c {
			cntP[id]++
		}
	}
	if m == 0 || n == 0 {
		return Score{}
	}
	hits := 0
	var table []int32
	for _, r := range target {
		union := make([]bool, len(r))
		for _, c := range prediction {
			table = lcsTable(table, r, c)
			markLCS(table, r, c, union)
		}
		for i, id := range r {
			if union[i] && cntT[id] > 0 && cntP[id] > 0 {
				hits++
				cntT[id]--
				cntP[id]--
			}
		}
	}
	return newScore(float64(hits)/float64(n), float64(hits)/float64(m))
}
