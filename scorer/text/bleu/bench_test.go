package bleu

import (
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// BenchmarkSentence scores a 200-word hypothesis against a 200-word
// reference with sentence options.
func BenchmarkSentence(b *testing.B) {
	hyp, ref := testtext.Answer(200, 0), testtext.Answer(200, 3)
	s, err := New(SentenceOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Sentence(hyp, ref); err != nil {
			b.Fatal(err)
		}
	}
}
