package rouge

import (
	"math"
	"testing"
)

// TestHandComputedScores checks small cases worked out by hand from
// rouge-score's definitions.
func TestHandComputedScores(t *testing.T) {
	tests := []struct {
		name               string
		typ                string
		opts               Options
		target, prediction string
		p, r               float64
	}{
		// the:2 cat:1 on:1 mat:1 of 5 prediction and 6 target unigrams
		{"unigrams", "rouge1", Options{}, "the cat sat on the mat", "the cat on the mat", 1, 5.0 / 6},
		// "the cat", "on the", "the mat" of 4 and 5 bigrams
		{"bigrams", "rouge2", Options{}, "the cat sat on the mat", "the cat on the mat", 3.0 / 4, 3.0 / 5},
		// "a" counts min(2, 4) times
		{"clipped counts", "rouge1", Options{}, "a a b", "a a a a", 2.0 / 4, 2.0 / 3},
		{"case and punctuation", "rouge1", Options{}, "Hello, World!", "hello world", 1, 1},
		{"fewer tokens than n", "rouge2", Options{}, "word", "word", 0, 0},
		{"trigrams", "rouge3", Options{}, "a b c d", "a b c x b c d", 2.0 / 5, 2.0 / 2},
		{"empty prediction", "rouge1", Options{}, "a b", "", 0, 0},
		{"empty target", "rougeL", Options{}, "", "a b", 0, 0},
		{"no tokens", "rougeLsum", Options{}, "...\n!!", "a", 0, 0},
		{"unstemmed", "rouge1", Options{}, "running runs", "run", 0, 0},
		// running -> run, runs -> run; "ran" is three letters and not stemmed
		{"stemmed", "rouge1", Options{UseStemmer: true}, "running runs ran", "run run", 1, 2.0 / 3},
		// a _ c _ e
		{"LCS with gaps", "rougeL", Options{}, "a b c d e", "a x c y e", 3.0 / 5, 3.0 / 5},
		{"LCS of reversed texts", "rougeL", Options{}, "a b c", "c b a", 1.0 / 3, 1.0 / 3},
		{"LCS across lines", "rougeL", Options{}, "a b\nc", "a\nb c", 1, 1},
		// Lin (2004) 3.2: the union of w1 w2 and w1 w3 w5 in the reference
		{"summary-level union", "rougeLsum", Options{}, "w1 w2 w3 w4 w5", "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", 4.0 / 10, 4.0 / 5},
		// the second target sentence finds its tokens' prediction budget spent
		{"token budgets", "rougeLsum", Options{}, "a b\na b", "a b", 1, 2.0 / 4},
		// against "b a" the backtrack keeps "a" (up on a tie), against "b" it
		// keeps "b": both tokens of the target sentence score
		{"backtrack on ties", "rougeLsum", Options{}, "a b", "b a\nb", 2.0 / 3, 1},
		{"blank lines", "rougeLsum", Options{}, "a b\n\n\nc", "\nc\n\na b\n", 1, 1},
	}
	for _, tt := range tests {
		s, err := NewScorer(tt.typ, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		var f float64
		if tt.p+tt.r > 0 {
			f = 2 * tt.p * tt.r / (tt.p + tt.r)
		}
		got := s.Score(tt.target, tt.prediction)
		if math.Abs(got.Precision-tt.p) > 1e-12 || math.Abs(got.Recall-tt.r) > 1e-12 || math.Abs(got.FMeasure-f) > 1e-12 {
			t.Errorf("%s: %s(%q, %q) = %+v, want P=%v R=%v F=%v", tt.name, tt.typ, tt.target, tt.prediction, got, tt.p, tt.r, f)
		}
	}
}
