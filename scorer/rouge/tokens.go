package rouge

// Tokens is a target and a prediction tokenized once for every ROUGE-N
// and ROUGE-L scorer with the same stemming, their tokens interned as
// integers over both texts. It is immutable once built.
type Tokens struct {
	targetText, predText string
	stem                 bool
	target, pred         []int32
	vocab                int
}

// NewTokens tokenizes target and prediction, stemmed when stem is set.
func NewTokens(target, prediction string, stem bool) *Tokens {
	v := newVocab()
	st := newStems(stem)
	t := v.ids(appendTokens(nil, target, st))
	p := v.ids(appendTokens(nil, prediction, st))
	return &Tokens{targetText: target, predText: prediction, stem: stem, target: t, pred: p, vocab: len(v.m)}
}

// Stems reports whether the scorer stems tokens: the stem argument of
// the Tokens it scores without tokenizing again.
func (s *Scorer) Stems() bool { return s.opts.UseStemmer }

// UsesTokens reports whether ScoreTokens scores from the tokens (every
// type but rougeLsum, whose sentences are tokenized on their own).
func (s *Scorer) UsesTokens() bool { return s.typ != TypeLsum }

// ScoreTokens returns Score(target, prediction) of the texts t was built
// from. It tokenizes again only when the scorer is rougeLsum or stems
// differently from t.
func (s *Scorer) ScoreTokens(t *Tokens) Score {
	if !s.UsesTokens() || t.stem != s.opts.UseStemmer {
		return s.Score(t.targetText, t.predText)
	}
	switch {
	case s.typ == TypeL:
		return scoreLCS(t.target, t.pred)
	case s.n == 1:
		return scoreUnigrams(t.target, t.pred, t.vocab)
	}
	return scoreNgrams(t.target, t.pred, s.n)
}
