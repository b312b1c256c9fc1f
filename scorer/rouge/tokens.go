package rouge

import (
	"sync"

	"github.com/evalsidecar/evalsidecar/internal/intern"
)

// Tokens is a target and a prediction tokenized once for every ROUGE
// scorer of the pair (rougeN, rougeL and the newline-split rougeLsum)
// with the same stemming, their tokens numbered over both texts. It is
// immutable once built and safe for concurrent use.
type Tokens struct {
	targetText, predText string
	stemmed              bool
	target, pred         []int32
	// targetLines and predLines end each newline-separated line that has
	// tokens: line k is target[targetLines[k-1]:targetLines[k]].
	targetLines, predLines []int32
	words                  []string // token by number; nil once stemmed or against a Target
	vocab                  int

	// Against a Target (see Scorer.TargetTokens): the target's tokens in
	// form, whose numbers the prediction shares; a prediction word the
	// target lacks is numbered form.vocab+k, its text unknown[k] (kept
	// until stemmed).
	tgt        *Target
	form       *targetForm
	unknown    []string
	predCounts []int32 // the prediction's count of each number below form.vocab

	lcsOnce sync.Once
	lcs     int
}

// NewTokens tokenizes target and prediction without stemming.
func NewTokens(target, prediction string) *Tokens {
	var sc scratch
	return newTokens(&sc, target, prediction)
}

// UnstemmedTokens is NewTokens with the scorer's scratch space: the
// tokens every scorer of the pair can share, stemming or not.
func (s *Scorer) UnstemmedTokens(target, prediction string) *Tokens {
	sc := s.pool.get()
	defer s.pool.put(sc)
	return newTokens(sc, target, prediction)
}

func newTokens(sc *scratch, target, prediction string) *Tokens {
	v := &sc.words
	v.Reset((len(target) + len(prediction)) / 12)
	t := &Tokens{targetText: target, predText: prediction}
	num := numbering{v: v}
	t.target, t.targetLines, _ = tokenizeLines(&num, target, sc, 0)
	t.pred, t.predLines, _ = tokenizeLines(&num, prediction, sc, 0)
	t.vocab = v.Len()
	t.words = make([]string, t.vocab)
	for id := range t.words {
		t.words[id] = v.String(int32(id))
	}
	return t
}

// withStems returns the tokens with every token longer than three
// characters replaced by its Porter stem (found in c, which may be nil),
// numbered again. t must not be stemmed already.
func (t *Tokens) withStems(c *stemCache) *Tokens {
	stems := c.stemAll(t.words)
	var v intern.Strings
	v.Reset(len(stems))
	remap := make([]int32, len(stems))
	for u, s := range stems {
		remap[u] = -1
		if s != "" {
			remap[u] = v.ID(s)
		}
	}
	out := &Tokens{targetText: t.targetText, predText: t.predText, stemmed: true}
	out.target, out.targetLines = remapLines(t.target, t.targetLines, remap)
	out.pred, out.predLines = remapLines(t.pred, t.predLines, remap)
	out.vocab = v.Len()
	return out
}

// remapLines renumbers ids, dropping those mapped to -1, and ends the
// lines again, dropping those left without tokens.
func remapLines(ids, lines []int32, remap []int32) (out, outLines []int32) {
	out = make([]int32, 0, len(ids))
	start := int32(0)
	for _, end := range lines {
		before := len(out)
		for _, id := range ids[start:end] {
			if r := remap[id]; r >= 0 {
				out = append(out, r)
			}
		}
		if len(out) > before {
			outLines = append(outLines, int32(len(out)))
		}
		start = end
	}
	return out, outLines
}

// lines returns the token lists of ids' lines.
func lines(ids, ends []int32) [][]int32 {
	out := make([][]int32, len(ends))
	start := int32(0)
	for k, end := range ends {
		out[k] = ids[start:end]
		start = end
	}
	return out
}

// lcsLength is the LCS length of target and prediction, computed once.
func (t *Tokens) lcsLength() int {
	t.lcsOnce.Do(func() { t.lcs = lcsLength(t.target, t.pred) })
	return t.lcs
}

// Tokens tokenizes target and prediction with the scorer's stemming.
func (s *Scorer) Tokens(target, prediction string) *Tokens {
	t := s.UnstemmedTokens(target, prediction)
	if s.opts.UseStemmer {
		t = s.StemTokens(t)
	}
	return t
}

// Stems reports whether the scorer stems tokens: whether ScoreTokens
// wants stemmed Tokens.
func (s *Scorer) Stems() bool { return s.opts.UseStemmer }

// StemTokens returns t stemmed with the scorer's cache of stems, so that
// unstemmed Tokens shared with other scorers are tokenized only once. t
// must not be stemmed already. For Tokens from TargetTokens, the target's
// stemmed form is the Target's, built once, and only the prediction's
// words the target lacks are stemmed here, each numbered as the target's
// word of the same stem when there is one.
func (s *Scorer) StemTokens(t *Tokens) *Tokens {
	if t.tgt != nil {
		return t.tgt.stemTokens(t, s.stems)
	}
	return t.withStems(s.stems)
}

// UsesTokens reports whether ScoreTokens scores from the tokens: every
// type but rougeLsum with SplitSummaries, whose sentences are split and
// tokenized on their own.
func (s *Scorer) UsesTokens() bool { return s.typ != TypeLsum || !s.opts.SplitSummaries }

// ScoreTokens returns Score(target, prediction) of the texts t was built
// from. It tokenizes again only when the scorer does not use tokens or
// stems differently from t. For Tokens from TargetTokens it scores the
// prediction against the data the Target keeps.
func (s *Scorer) ScoreTokens(t *Tokens) Score {
	if !s.UsesTokens() || t.stemmed != s.opts.UseStemmer {
		return s.Score(t.targetText, t.predText)
	}
	if t.form != nil {
		return s.scoreTarget(t)
	}
	switch {
	case s.typ == TypeLsum:
		sc := s.pool.get()
		defer s.pool.put(sc)
		return scoreLsum(sc, lines(t.target, t.targetLines), lines(t.pred, t.predLines), t.vocab)
	case s.typ == TypeL:
		if len(t.target) == 0 || len(t.pred) == 0 {
			return Score{}
		}
		l := t.lcsLength()
		return newScore(float64(l)/float64(len(t.pred)), float64(l)/float64(len(t.target)))
	case s.n == 1:
		return scoreUnigrams(t.target, t.pred, t.vocab)
	}
	sc := s.pool.get()
	defer s.pool.put(sc)
	return scoreNgrams(&sc.grams, t.target, t.pred, s.n)
}
