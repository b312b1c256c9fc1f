package rouge

import "github.com/evalsidecar/evalsidecar/scorer/text/ngram"

// Pair is a target and a prediction tokenized as rouge-score does (see
// words), each
// token replaced by its number in a vocabulary the two share, with
// where each text's lines start.
type Pair struct {
	target, prediction side
	toks               []string // the tokens, each at its number
}

// side is one text of a pair.
type side struct {
	ids    []int32 // the token numbers
	breaks []int   // breaks[k] is the number of tokens before the k-th newline
}

// NewPair tokenizes target and prediction, with stemming when stem is
// set, and numbers their tokens.
func NewPair(target, prediction string, stem bool) Pair {
	var v ngram.Vocabulary
	tt, tb := words(target)
	pt, pb := words(prediction)
	ids := v.AppendIDs(make([]int32, 0, len(tt)+len(pt)), tt) // both sides' numbers, allocated once
	ids = v.AppendIDs(ids, pt)
	p := Pair{
		target:     side{ids: ids[:len(tt):len(tt)], breaks: tb},
		prediction: side{ids: ids[len(tt):], breaks: pb},
		toks:       v.Tokens(),
	}
	if stem {
		return p.Stemmed()
	}
	return p
}

// Stemmed returns the pair of a NewPair without stemming as NewPair
// with stemming builds it: each distinct word stemmed once, words whose
// stems are equal numbered alike.
func (p Pair) Stemmed() Pair {
	ids, stems := stemNumbers(p.toks)
	n := len(p.target.ids)
	both := make([]int32, n+len(p.prediction.ids)) // both sides' numbers, allocated once
	p.target.renumber(both[:n:n], ids)
	p.prediction.renumber(both[n:], ids)
	return Pair{
		target:     side{ids: both[:n:n], breaks: p.target.breaks},
		prediction: side{ids: both[n:], breaks: p.prediction.breaks},
		toks:       stems,
	}
}

// size is how many numbers the pair uses: every number is below it.
func (p Pair) size() int { return len(p.toks) }

// renumber writes in out, as long as the side's numbers, each token
// number w replaced by ids[w].
func (s side) renumber(out, ids []int32) {
	for i, w := range s.ids {
		out[i] = ids[w]
	}
}

// lines returns the token numbers of each line that has tokens, in
// order: the sentences of rouge-score's rougeLsum, which splits on "\n"
// and tokenizes each line (a line without tokens adds nothing to the
// score).
func (s side) lines() [][]int32 {
	out := make([][]int32, 0, len(s.breaks)+1)
	start := 0
	for k := 0; k <= len(s.breaks); k++ {
		end := len(s.ids)
		if k < len(s.breaks) {
			end = s.breaks[k]
		}
		if end > start {
			out = append(out, s.ids[start:end])
		}
		start = end
	}
	return out
}
