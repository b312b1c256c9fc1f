package rouge

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// FuzzTokenize checks that the tokenizer never panics and yields only
// non-empty [a-z0-9] tokens, that a pair's lines hold the tokens of the
// texts' lines (checkLines), and that every ROUGE type scores in [0, 1],
// symmetric in F, and 1 for a text against itself when it has enough
// tokens.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"Hello, World!", "Café naïve", "İstanbul \u212a", "a b c\nd e", "running quickly.", "\xff\xfe"} {
		f.Add(s, "the reference text", true)
	}
	var scorers []*Scorer
	for _, typ := range Types() {
		for _, opts := range []Options{{}, {UseStemmer: true, SplitSummaries: true}} {
			s, err := NewScorer(string(typ), opts)
			if err != nil {
				f.Fatal(err)
			}
			scorers = append(scorers, s)
		}
	}
	f.Fuzz(func(t *testing.T, a, b string, stem bool) {
		toks := tokenize(a, stem)
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token from %q", a)
			}
			for i := 0; i < len(tok); i++ {
				if c := tok[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
					t.Fatalf("token %q from %q has byte %q", tok, a, c)
				}
			}
		}
		checkLines(t, a, b, stem)
		for _, s := range scorers {
			ab, ba := s.Score(a, b), s.Score(b, a)
			for _, v := range []float64{ab.Precision, ab.Recall, ab.FMeasure} {
				if math.IsNaN(v) || v < 0 || v > 1 {
					t.Fatalf("%s(%q, %q) = %+v out of [0, 1]", s.Type(), a, b, ab)
				}
			}
			if s.Type() != TypeLsum && math.Abs(ab.FMeasure-ba.FMeasure) > 1e-12 {
				t.Fatalf("%s F not symmetric: %v vs %v", s.Type(), ab.FMeasure, ba.FMeasure)
			}
			if n := s.Type().N(); n > 0 && len(tokenize(a, s.opts.UseStemmer)) >= n {
				if self := s.Score(a, a); self.FMeasure != 1 {
					t.Fatalf("%s(%q, itself) = %+v", s.Type(), a, self)
				}
			}
		}
	})
}

// checkLines checks the sentences rougeLsum scores: the lines of a pair
// are the tokens of each line of the text that has any, as rouge-score
// tokenizes each line on its own, and with SplitSummaries those of each
// sentence SplitSentences finds.
func checkLines(t *testing.T, a, b string, stem bool) {
	t.Helper()
	for _, split := range []bool{false, true} {
		s, err := NewScorer(string(TypeLsum), Options{UseStemmer: stem, SplitSummaries: split})
		if err != nil {
			t.Fatal(err)
		}
		sents := strings.Split(a, "\n")
		if split {
			sents = SplitSentences(a)
		}
		var want [][]string
		for _, sent := range sents {
			if toks := tokenize(sent, stem); len(toks) > 0 {
				want = append(want, toks)
			}
		}
		p := NewPair(s.Text(a), s.Text(b), stem)
		var got [][]string
		for _, line := range p.target.lines() {
			toks := make([]string, len(line))
			for i, id := range line {
				toks[i] = p.toks[id]
			}
			got = append(got, toks)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("lines of %q (split %v) = %q, want %q", a, split, got, want)
		}
	}
}
