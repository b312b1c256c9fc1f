// Package rouge computes ROUGE-N, ROUGE-L and ROUGE-Lsum exactly as
// Google's rouge-score 0.1.2 (rouge_scorer.RougeScorer) does: its
// tokenizer, NLTK 3.8's Porter stemmer applied only to tokens longer than
// three characters, clipped n-gram counts, LCS, and the summary-level
// union-LCS with token budgets. Every score is a precision, recall and
// F-measure; the F-measure is what Vertex AI and Google ADK report.
package rouge

import (
	"fmt"
	"strings"
)

// Score is one ROUGE result.
type Score struct {
	Precision float64
	Recall    float64
	FMeasure  float64
}

// newScore builds a Score with rouge-score's F-measure: 2PR/(P+R), or 0
// when P+R is 0.
func newScore(p, r float64) Score {
	s := Score{Precision: p, Recall: r}
	if p+r > 0 {
		s.FMeasure = 2 * p * r / (p + r)
	}
	return s
}

// Options are rouge-score's RougeScorer options.
type Options struct {
	// UseStemmer stems tokens longer than three characters with NLTK's
	// Porter stemmer.
	UseStemmer bool
	// SplitSummaries makes rougeLsum split text into sentences (see
	// SplitSentences) instead of on newlines.
	SplitSummaries bool
}

// Type names a ROUGE variant: "rouge1" … "rouge9", "rougeL" or
// "rougeLsum".
type Type string

// The ROUGE variants other than rouge1…rouge9.
const (
	TypeL    Type = "rougeL"
	TypeLsum Type = "rougeLsum"
)

// Types lists every accepted type name.
func Types() []Type {
	return []Type{"rouge1", "rouge2", "rouge3", "rouge4", "rouge5", "rouge6", "rouge7", "rouge8", "rouge9", TypeL, TypeLsum}
}

// ParseType checks a type name. rouge-score accepts rouge1 to rouge9
// ("rouge0" and "rouge10" are errors), rougeL and rougeLsum.
func ParseType(s string) (Type, error) {
	names := make([]string, 0, 11)
	for _, t := range Types() {
		if string(t) == s {
			return t, nil
		}
		names = append(names, string(t))
	}
	return "", fmt.Errorf("unknown ROUGE type %q (want one of %s)", s, strings.Join(names, ", "))
}

// N returns the n-gram order of rouge1…rouge9, or 0 for rougeL and
// rougeLsum.
func (t Type) N() int {
	if len(t) == 6 && strings.HasPrefix(string(t), "rouge") && t[5] >= '1' && t[5] <= '9' {
		return int(t[5] - '0')
	}
	return 0
}

// Scorer computes one ROUGE type. It is immutable and safe for concurrent
// use.
type Scorer struct {
	typ  Type
	opts Options
}

// NewScorer returns a scorer for the type named t.
func NewScorer(t string, opts Options) (*Scorer, error) {
	typ, err := ParseType(t)
	if err != nil {
		return nil, err
	}
	return &Scorer{typ: typ, opts: opts}, nil
}

// Type returns the scorer's ROUGE type.
func (s *Scorer) Type() Type { return s.typ }

// Score compares prediction with target (the reference), in
// rouge-score's argument order: score(target, prediction).
func (s *Scorer) Score(target, prediction string) Score {
	return s.ScorePair(NewPair(s.Text(target), s.Text(prediction), s.opts.UseStemmer))
}

// Text returns text as the scorer reads it: for rougeLsum with
// SplitSummaries, its sentences (SplitSentences) one per line, newlines
// inside a sentence read as spaces (both separate tokens alike);
// otherwise text itself.
func (s *Scorer) Text(text string) string {
	if s.typ != TypeLsum || !s.opts.SplitSummaries {
		return text
	}
	sents := SplitSentences(text)
	for i, sent := range sents {
		sents[i] = strings.ReplaceAll(sent, "\n", " ")
	}
	return strings.Join(sents, "\n")
}

// Options returns the scorer's options.
func (s *Scorer) Options() Options { return s.opts }

// ScorePair scores the pair of the texts Text returns, built by NewPair
// with the scorer's stemming option, as Score scores the texts.
func (s *Scorer) ScorePair(p Pair) Score {
	switch s.typ {
	case TypeL:
		return scoreLCS(p.target.ids, p.prediction.ids)
	case TypeLsum:
		t, c := p.target.lines(), p.prediction.lines()
		if len(t) == 1 && len(c) == 1 {
			// one sentence each: the union LCS is the LCS
			return scoreLCS(t[0], c[0])
		}
		return scoreLsum(t, c, p.size())
	}
	return scoreNgrams(p, s.typ.N())
}
