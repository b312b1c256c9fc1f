package bleu

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// preparedCases are segments for the prepared path: a hypothesis and its
// references.
var preparedCases = []struct {
	name string
	hyp  string
	refs []string
}{
	{"identical", "The cat sat on the mat.", []string{"The cat sat on the mat."}},
	{"empty hypothesis", "", []string{"the cat sat"}},
	{"blank hypothesis", " \t\n", []string{"the cat sat"}},
	{"blank reference", "the cat", []string{"   "}},
	{"empty and blank references", "the cat", []string{"", " ", ""}},
	{"empty reference skipped", "the cat sat", []string{"", "the cat"}},
	{"several references of different lengths", "the cat sat on the mat",
		[]string{"a cat sat", "the cat sat on a mat today and more", "the cat is on the mat"}},
	{"tie between reference lengths", "one two three four five", []string{"one two three", "one two three four five six seven"}},
	{"clipping", "the the the the the the the", []string{"the cat is on the mat", "there is a cat on the mat"}},
	{"clipping n-grams", "a b a b a b a b a b", []string{"a b a b c", "b a b a b a"}},
	{"max over references", "x y x y x y", []string{"x y", "y x y x", "x y x y x"}},
	{"no match", "alpha beta gamma", []string{"delta epsilon"}},
	{"hypothesis longer than reference", strings.Repeat("word ", 40), []string{"word word word"}},
	{"non-ASCII", "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;",
		[]string{"producţia de zahăr brut se exprimă în zahăr alb;"}},
	{"CJK and emoji", "東京は 晴れ です 🙂 🙂", []string{"東京は 雨 です 🙂"}},
	{"punctuation", "Hello, world! (It's 3.14 -- or $1,000.50?) e.g. U.S.A.; x-y 1-2 &amp; &lt;b&gt;",
		[]string{"Hello world! It's 3.14, or $1,000.50... e.g. U.S.A. x-y 1 - 2 & <b>"}},
	{"only punctuation", ".,;:!?()[]{}", []string{"..,,;;"}},
	{"whitespace kinds", "\u3000a\u00a0b\u2003c \u3000d\x1ce\u0085", []string{"a b c d e"}},
	{"invalid UTF-8", "\xff\xfe a\xffb \xc3", []string{"\xff a\xffb \xc3\xa9"}},
	{"NUL bytes", "a\x00 a \x00a a\x00\x00", []string{"a a\x00 \x00a"}},
	{"token lengths around eight and sixteen bytes", "abcdefg abcdefgh abcdefghi abcdefghijklmnop abcdefghijklmnopq abcdefghijklmnopqrstuvwxyz0123",
		[]string{"abcdefgh abcdefghi abcdefghijklmnopq abcdefghijklmnopqrstuvwxyz0123 abcdefghijklmnop abcdefg"}},
	{"long tokens differing in the middle", "aaaaaaaa1aaaaaaaaa aaaaaaaa2aaaaaaaaa", []string{"aaaaaaaa2aaaaaaaaa aaaaaaaa1aaaaaaaaa"}},
	{"short hypothesis, long reference", "the cat", []string{strings.Repeat("the cat sat on a mat and then it sat on the hat ", 30)}},
	{"repeated phrase", strings.Repeat("to be or not to be ", 10), []string{strings.Repeat("to be or not to be ", 3), "be not to or"}},
}

// TestTokenizersMatchOracles checks the public tokenizers against the
// plain ones on the texts of preparedCases.
func TestTokenizersMatchOracles(t *testing.T) {
	for _, c := range preparedCases {
		for _, text := range append([]string{c.hyp}, c.refs...) {
			for name, got := range map[string][]string{
				Tokenizer13a:  Tokenize13a(text),
				TokenizerChar: TokenizeChar(text),
				TokenizerNone: Fields(text),
			} {
				if want := oracleTokenizers[name](text); !slices.Equal(got, want) {
					t.Errorf("%s tokens of %q: %q, want %q", name, text, got, want)
				}
			}
		}
	}
}

// preparedOptions are scorers of every tokenizer.
func preparedOptions() []Options {
	var out []Options
	for _, tok := range []string{Tokenizer13a, TokenizerChar, TokenizerNone} {
		out = append(out,
			Options{Tokenizer: tok, Smooth: SmoothExp, EffectiveOrder: true},
			Options{Tokenizer: tok, Smooth: SmoothFloor},
			Options{Tokenizer: tok, Smooth: SmoothAddK, EffectiveOrder: true},
			Options{Tokenizer: tok, Smooth: SmoothNone})
	}
	return out
}

// checkPrepared checks that the prepared path, SegmentStats and the map
// oracle agree on one segment, statistics and scores exactly.
func checkPrepared(t *testing.T, b *BLEU, hyp string, refs []string) {
	t.Helper()
	want, wantErr := oracleStats(b.Options().Tokenizer, hyp, refs)
	got, err := b.SegmentStats(hyp, refs)
	if err != wantErr || got != want {
		t.Fatalf("SegmentStats(%q, %q) = %+v, %v; oracle %+v, %v", hyp, refs, got, err, want, wantErr)
	}
	r, err := b.Prepare(refs...)
	if err != wantErr {
		t.Fatalf("Prepare(%q): %v, want %v", refs, err, wantErr)
	}
	if err != nil {
		if r != nil {
			t.Fatalf("Prepare(%q) returned a Reference with an error", refs)
		}
		return
	}
	if r.Tokenizer() != b.Options().Tokenizer {
		t.Fatalf("Reference tokenizer %q, scorer %q", r.Tokenizer(), b.Options().Tokenizer)
	}
	prep, err := b.SegmentStatsPrepared(hyp, r)
	if err != nil || prep != want {
		t.Fatalf("SegmentStatsPrepared(%q) against %q = %+v, %v; oracle %+v", hyp, refs, prep, err, want)
	}
	s, err := b.Sentence(hyp, refs...)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := b.SentencePrepared(hyp, r)
	if err != nil {
		t.Fatal(err)
	}
	if s != ps || s != b.Compute(want) {
		t.Fatalf("Sentence(%q, %q) = %+v, SentencePrepared %+v, from the oracle's statistics %+v", hyp, refs, s, ps, b.Compute(want))
	}
}

func TestPreparedMatchesUnprepared(t *testing.T) {
	for _, o := range preparedOptions() {
		b, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range preparedCases {
			t.Run(fmt.Sprintf("%s/%s/%s", o.Tokenizer, o.Smooth, c.name), func(t *testing.T) {
				checkPrepared(t, b, c.hyp, c.refs)
				// each reference as the hypothesis, the hypothesis as a reference
				for _, r := range c.refs {
					checkPrepared(t, b, r, append([]string{c.hyp}, c.refs...))
				}
			})
		}
	}
}

// TestPreparedOneScorerManyReferences alternates References of very
// different sizes on one scorer, so that its pooled scratch goes from one
// to the other.
func TestPreparedOneScorerManyReferences(t *testing.T) {
	b, err := New(SentenceOptions())
	if err != nil {
		t.Fatal(err)
	}
	type prepared struct {
		refs []string
		r    *Reference
	}
	var ps []prepared
	for _, c := range preparedCases {
		if r, err := b.Prepare(c.refs...); err == nil {
			ps = append(ps, prepared{c.refs, r})
		}
	}
	for round := range 3 {
		for i, p := range ps {
			for _, c := range preparedCases[(i+round)%len(preparedCases):] {
				want, _ := oracleStats(Tokenizer13a, c.hyp, p.refs)
				got, err := b.SegmentStatsPrepared(c.hyp, p.r)
				if err != nil || got != want {
					t.Fatalf("%q against %q: %+v, %v; oracle %+v", c.hyp, p.refs, got, err, want)
				}
			}
		}
	}
}

func TestPrepareEmptyReference(t *testing.T) {
	b, err := New(SentenceOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, refs := range [][]string{nil, {""}, {"", ""}} {
		if r, err := b.Prepare(refs...); err != ErrEmptyReference || r != nil {
			t.Errorf("Prepare(%q) = %v, %v; want nil, ErrEmptyReference", refs, r, err)
		}
		if _, err := b.SegmentStats("x", refs); err != ErrEmptyReference {
			t.Errorf("SegmentStats(x, %q): %v, want ErrEmptyReference", refs, err)
		}
	}
	for _, refs := range [][]string{{" "}, {"", "\n"}} {
		if _, err := b.Prepare(refs...); err != nil {
			t.Errorf("Prepare(%q) of a blank reference: %v", refs, err)
		}
	}
}

func TestPreparedRejectsOtherTokenizer(t *testing.T) {
	b13a, _ := New(Options{Tokenizer: Tokenizer13a})
	bChar, _ := New(Options{Tokenizer: TokenizerChar})
	r, err := b13a.Prepare("the cat")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bChar.SegmentStatsPrepared("the cat", r); !errors.Is(err, ErrTokenizerMismatch) {
		t.Errorf("char scorer with a 13a Reference: %v, want ErrTokenizerMismatch", err)
	}
	if _, err := bChar.SentencePrepared("the cat", r); !errors.Is(err, ErrTokenizerMismatch) {
		t.Errorf("SentencePrepared, char scorer with a 13a Reference: %v, want ErrTokenizerMismatch", err)
	}
	if _, err := b13a.SentencePrepared("the cat", nil); err == nil {
		t.Error("nil Reference accepted")
	}
	// a scorer with other smoothing but the same tokenizer may use it
	bFloor, _ := New(Options{Tokenizer: Tokenizer13a, Smooth: SmoothFloor})
	if _, err := bFloor.SentencePrepared("the cat", r); err != nil {
		t.Errorf("same tokenizer, other smoothing: %v", err)
	}
}

// TestPreparedConcurrent scores many hypotheses against one shared
// Reference from many goroutines at once (run it with -race) and checks
// every result against sequential scoring.
func TestPreparedConcurrent(t *testing.T) {
	b, err := New(SentenceOptions())
	if err != nil {
		t.Fatal(err)
	}
	ref := testtext.Answer(200, 3)
	r, err := b.Prepare(ref, testtext.Answer(150, 11))
	if err != nil {
		t.Fatal(err)
	}
	var hyps []string
	for i := range 24 {
		hyps = append(hyps, testtext.Answer(5+i*17, i))
	}
	for _, c := range preparedCases {
		hyps = append(hyps, c.hyp)
	}
	want := make([]Score, len(hyps))
	for i, h := range hyps {
		if want[i], err = b.Sentence(h, ref, testtext.Answer(150, 11)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 20 {
				for k := range hyps {
					i := (k + g + round) % len(hyps)
					got, err := b.SentencePrepared(hyps[i], r)
					if err != nil || got != want[i] {
						errs <- fmt.Errorf("goroutine %d, hypothesis %d: %+v, %v; sequential %+v", g, i, got, err, want[i])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// FuzzPrepared compares the prepared path and SegmentStats with the map
// oracle on a hypothesis and one to three references, for each
// tokenizer.
func FuzzPrepared(f *testing.F) {
	for _, c := range preparedCases {
		refs := append(c.refs, "", "", "")
		f.Add(c.hyp, refs[0], refs[1], refs[2], uint8(len(c.refs)), uint8(0))
	}
	f.Add(testtext.Answer(60, 0), testtext.Answer(200, 3), "", "", uint8(1), uint8(0))
	f.Add("a-b 1-2", "1,000.5", "x", "y", uint8(3), uint8(1))
	var bs []*BLEU
	for _, tok := range []string{Tokenizer13a, TokenizerChar, TokenizerNone} {
		b, err := New(Options{Tokenizer: tok, Smooth: SmoothExp, EffectiveOrder: true})
		if err != nil {
			f.Fatal(err)
		}
		bs = append(bs, b)
	}
	f.Fuzz(func(t *testing.T, hyp, r1, r2, r3 string, nRefs, tok uint8) {
		refs := []string{r1, r2, r3}[:1+int(nRefs)%3]
		checkPrepared(t, bs[int(tok)%len(bs)], hyp, refs)
	})
}
