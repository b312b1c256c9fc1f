package rouge

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// BenchmarkScore scores a 200-word response against a 200-word reference
// with rouge1, rouge2, rougeL and rougeLsum.
func BenchmarkScore(b *testing.B) {
	target, prediction := testtext.Answer(200, 3), testtext.Answer(200, 0)
	for _, typ := range Types() {
		if typ.N() > 2 {
			continue
		}
		s, err := NewScorer(string(typ), Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(typ), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s.Score(target, prediction)
			}
		})
	}
}

// BenchmarkNewPair tokenizes and numbers a 200-word text.
func BenchmarkNewPair(b *testing.B) {
	text := testtext.Answer(200, 0)
	for _, stem := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "stemmed"}[stem], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewPair(text, "", stem)
			}
		})
	}
}
