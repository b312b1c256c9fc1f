package bleu

import (
	"slices"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// BenchmarkSentence scores a 200-word hypothesis against a 200-word
// reference with sentence options, tokenizing both every time.
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

// BenchmarkSentencePrepared scores the hypothesis of BenchmarkSentence
// against its reference prepared once.
func BenchmarkSentencePrepared(b *testing.B) {
	benchPrepared(b, testtext.Answer(200, 0), testtext.Answer(200, 3))
}

// BenchmarkSentencePreparedReversed scores the hypothesis of
// BenchmarkSentence against its reference with the words in reverse
// order, prepared once: the same words, few shared longer n-grams, so
// most tokens are looked up rather than followed.
func BenchmarkSentencePreparedReversed(b *testing.B) {
	words := strings.Fields(testtext.Answer(200, 3))
	slices.Reverse(words)
	benchPrepared(b, testtext.Answer(200, 0), strings.Join(words, " "))
}

// benchPrepared scores hyp against ref prepared once, with sentence
// options.
func benchPrepared(b *testing.B, hyp, ref string) {
	s, err := New(SentenceOptions())
	if err != nil {
		b.Fatal(err)
	}
	r, err := s.Prepare(ref)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SentencePrepared(hyp, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepare prepares the reference of BenchmarkSentence.
func BenchmarkPrepare(b *testing.B) {
	ref := testtext.Answer(200, 3)
	s, err := New(SentenceOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Prepare(ref); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTokenize13a tokenizes the 200-word hypothesis.
func BenchmarkTokenize13a(b *testing.B) {
	hyp := testtext.Answer(200, 0)
	toks := make([]span, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		toks, _ = spans13a(toks[:0], hyp)
	}
}
