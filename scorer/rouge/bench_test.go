package rouge

import (
	"strings"
	"testing"
)

// benchWords is a realistic vocabulary for 200-word answers.
var benchWords = strings.Fields(`the order was shipped on Monday and should arrive within three to five
business days. You can track the package using the link in your confirmation email. If the item
arrives damaged, please contact our support team and we will arrange a replacement or a full refund.
Returns are accepted within thirty days of delivery, provided the product is unused and in its
original packaging. Refunds are processed to the original payment method once the warehouse has
inspected the returned items, which usually takes two or three working days.`)

// benchText builds an n-word text from the vocabulary, starting at offset,
// with a sentence break every 20 words.
func benchText(n, offset int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%20 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(benchWords[(i*7+offset)%len(benchWords)])
	}
	return b.String()
}

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
	pred, target := benchText(200, 0), benchText(200, 3)
	scorers := benchScorers(b)
	b.ReportAllocs()
	for b.Loop() {
		scoreRun(scorers, scorers[0].UnstemmedTokens(target, pred))
	}
}

// BenchmarkRunAgainstTarget scores one run of the six scorers against a
// target prepared once: TargetTokens, StemTokens and the six scores.
func BenchmarkRunAgainstTarget(b *testing.B) {
	pred := benchText(200, 0)
	tgt := NewTarget(benchText(200, 3))
	scorers := benchScorers(b)
	scoreRun(scorers, scorers[0].TargetTokens(tgt, pred)) // builds the target's data
	b.ReportAllocs()
	for b.Loop() {
		scoreRun(scorers, scorers[0].TargetTokens(tgt, pred))
	}
}
