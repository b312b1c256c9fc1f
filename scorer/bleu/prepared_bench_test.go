package bleu

import (
	"slices"
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

// BenchmarkSentence scores a 200-word hypothesis against a 200-word
// reference with sentence options, tokenizing both every time.
func BenchmarkSentence(b *testing.B) {
	hyp, ref := benchText(200, 0), benchText(200, 3)
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
	hyp, ref := benchText(200, 0), benchText(200, 3)
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

// BenchmarkSentencePreparedReversed scores the hypothesis of
// BenchmarkSentence against its reference with the words in reverse
// order, prepared once: the same words, few shared longer n-grams, so
// most tokens are looked up rather than followed.
func BenchmarkSentencePreparedReversed(b *testing.B) {
	words := strings.Fields(benchText(200, 3))
	slices.Reverse(words)
	hyp, ref := benchText(200, 0), strings.Join(words, " ")
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
	ref := benchText(200, 3)
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
	hyp := benchText(200, 0)
	toks := make([]span, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		toks, _ = spans13a(toks[:0], hyp)
	}
}
