package rouge

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// benchScorers are the scorers of the online metric set, in its order:
// rougeL, rouge1, rouge2, rougeL again, rougeLsum on lines, and rouge1
// with the stemmer.
func benchScorers(b *testing.B) []*Scorer {
	var out []*Scorer
	for _, c := range []struct {
		typ  string
		stem bool
	}{{"rougeL", false}, {"rouge1", false}, {"rouge2", false}, {"rougeL", false}, {"rougeLsum", false}, {"rouge1", true}} {
		s, err := NewScorer(c.typ, Options{UseStemmer: c.stem})
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// scoreRun scores one run with the six scorers, from the unstemmed
// tokens base, stemmed by the last scorer.
func scoreRun(scorers []*Scorer, base *Tokens) {
	stemmed := scorers[len(scorers)-1].StemTokens(base)
	for _, s := range scorers {
		t := base
		if s.Stems() {
			t = stemmed
		}
		s.ScoreTokens(t)
	}
}

// BenchmarkRunUnprepared scores one run of the six scorers from
// UnstemmedTokens of both texts.
func BenchmarkRunUnprepared(b *testing.B) {
	pred, target := testtext.Answer(200, 0), testtext.Answer(200, 3)
	scorers := benchScorers(b)
	b.ReportAllocs()
	for b.Loop() {
		scoreRun(scorers, scorers[0].UnstemmedTokens(target, pred))
	}
}

// BenchmarkRunAgainstTarget scores one run of the six scorers against a
// target prepared once: TargetTokens, StemTokens and the six scores.
func BenchmarkRunAgainstTarget(b *testing.B) {
	pred := testtext.Answer(200, 0)
	tgt := NewTarget(testtext.Answer(200, 3))
	scorers := benchScorers(b)
	scoreRun(scorers, scorers[0].TargetTokens(tgt, pred)) // builds the target's data
	b.ReportAllocs()
	for b.Loop() {
		scoreRun(scorers, scorers[0].TargetTokens(tgt, pred))
	}
}
