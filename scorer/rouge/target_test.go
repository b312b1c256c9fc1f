package rouge

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/testtext"
)

// targetScorers returns a scorer of every type for every option set.
func targetScorers(tb testing.TB) []*Scorer {
	tb.Helper()
	var out []*Scorer
	for _, typ := range Types() {
		for _, opts := range []Options{{}, {UseStemmer: true}, {SplitSummaries: true}, {UseStemmer: true, SplitSummaries: true}} {
			s, err := NewScorer(string(typ), opts)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, s)
		}
	}
	return out
}

// scoresAgainst scores prediction against tgt with every scorer, from
// one TargetTokens and one StemTokens shared by all of them, as the
// scorers of one run share them.
func scoresAgainst(scorers []*Scorer, tgt *Target, prediction string) []Score {
	base := scorers[0].TargetTokens(tgt, prediction)
	var stemmed *Tokens
	out := make([]Score, len(scorers))
	for k, s := range scorers {
		t := base
		if s.Stems() {
			if stemmed == nil {
				stemmed = s.StemTokens(base)
			}
			t = stemmed
		}
		out[k] = s.ScoreTokens(t)
	}
	return out
}

// checkTarget checks that scoring prediction against tgt gives exactly
// Score(tgt.Text(), prediction) for every scorer.
func checkTarget(t *testing.T, scorers []*Scorer, tgt *Target, prediction string) {
	t.Helper()
	for k, got := range scoresAgainst(scorers, tgt, prediction) {
		s := scorers[k]
		if want := s.Score(tgt.Text(), prediction); got != want {
			t.Fatalf("%s %+v against target %q, prediction %q: %+v, Score gives %+v", s.typ, s.opts, tgt.Text(), prediction, got, want)
		}
	}
}

// longText is n words over a small vocabulary, with a newline every
// line words (none when line is 0), so lines may pass 64 tokens.
func longText(r *rand.Rand, n, line int, words []string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if line > 0 && i%line == 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

func TestTargetTokensScoreAsScore(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	small := strings.Fields("the a run runs running ran runner The RUNS Running generous generously")
	tests := []struct {
		name               string
		target, prediction string
	}{
		{"both empty", "", ""},
		{"empty target", "", "the cat sat"},
		{"empty prediction", "the cat sat", ""},
		{"no tokens", "... !!!\n\n", "東京 ?"},
		{"identical", "The cat sat on the mat.\nThe dog sat on the log.", "The cat sat on the mat.\nThe dog sat on the log."},
		{"disjoint", "alpha beta gamma", "delta epsilon zeta"},
		{"repeated words", "a b a b a b\na b", "b a b a\na a a b b b"},
		{"stems of prediction-only words", "running generously conditional", "runs run generous conditionally"},
		{"short prediction word is a target stem", "runs running", "run"},
		{"non-ASCII", "Café naïve İstanbul \u212a elvin résumé", "cafe NAÏVE istanbul Kelvin \u212aelvin r sum"},
		{"capitals rewritten", "Refunds are PROCESSED once", "REFUNDS Are processed Once refunds"},
		{"invalid UTF-8", "bad\xffutf8 ok", "bad utf8\xfe ok"},
		{"one token each", "x", "x"},
		{"blank lines", "\n\nx y z\n \n x y z x\n\n", "x\n\ny z x\n"},
		{"long lines", longText(r, 300, 0, small), longText(r, 250, 0, small)},
		{"long target lines", longText(r, 400, 130, small), longText(r, 200, 20, small)},
		{"long prediction lines", longText(r, 200, 15, small), longText(r, 400, 150, small)},
		{"exactly 64 and 65", longText(r, 129, 64, small), longText(r, 130, 65, small)},
		{"bench texts", testtext.Answer(200, 3), testtext.Answer(200, 0)},
		{"long words and capitals", "Confirmation REPLACEMENT warehouse packaging", "CONFIRMATION replacement Warehouses unpackaged confirmations"},
		{"eight-byte words", "shipping delivery", "SHIPPING Delivery shipping deliverY"},
		{"words at the end of the text", "to be or not to be", "be"},
		{"only unknown words", "alpha", "beta gamma delta epsilon zetazetazeta Unknownlongword"},
		{"quotes and dashes", "“Refunds” — processed", "refunds—processed “quickly”"},
		{"KELVIN SIGN and İ in the prediction only", "kelvin istanbul", "\u212aELVIN İstanbul \u212a"},
		{"sentence without tokens first", "! 0", "0"},
	}
	scorers := targetScorers(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tgt := NewTarget(tt.target)
			if tgt.Text() != tt.target {
				t.Fatalf("Text() = %q", tgt.Text())
			}
			checkTarget(t, scorers, tgt, tt.prediction)
			// the prepared target serves further predictions, and
			// predictions the other way round
			checkTarget(t, scorers, tgt, tt.target)
			checkTarget(t, scorers, NewTarget(tt.prediction), tt.target)
		})
	}
}

// TestTargetFallsBackOnHugeInputs checks the bounds on what a Target
// keeps and on the steps of its rougeLsum: a long prediction repeating a
// word that every target line holds, and a long reference with a large
// vocabulary, are scored without the target's kept data, with the same
// scores.
func TestTargetFallsBackOnHugeInputs(t *testing.T) {
	scorers := []*Scorer{}
	for _, typ := range []string{"rougeL", "rougeLsum"} {
		s, err := NewScorer(typ, Options{})
		if err != nil {
			t.Fatal(err)
		}
		scorers = append(scorers, s)
	}

	t.Run("repetitive prediction", func(t *testing.T) {
		tgt := NewTarget(strings.Repeat("the cat sat on the mat\n", 500))
		pred := strings.Repeat("the ", 20000)
		tok := scorers[0].TargetTokens(tgt, pred)
		if tgt.plain.lsumData().fits(tok.pred, tok.predLines, len(tgt.plain.ids)) {
			t.Error("fits: a 20000-token prediction of a word in each of 500 lines was scored on the target's lines")
		}
		short := scorers[0].TargetTokens(tgt, "the cat sat\non the mat")
		if !tgt.plain.lsumData().fits(short.pred, short.predLines, len(tgt.plain.ids)) {
			t.Error("fits: a short prediction was not scored on the target's lines")
		}
		checkTarget(t, scorers, tgt, pred)
	})

	t.Run("large reference vocabulary", func(t *testing.T) {
		var b strings.Builder
		for i := range 70000 {
			fmt.Fprintf(&b, "w%d ", i%20000)
		}
		tgt := NewTarget(b.String())
		if !tgt.plain.lcsMasks().tooBig || !tgt.plain.lsumData().tooBig {
			t.Fatal("a 70000-token reference of 20000 words kept its masks")
		}
		checkTarget(t, scorers, tgt, "w1 w2 w3 x w19999 w5")
	})
}

// TestTargetMatchesTheOracle scores random texts against shared targets.
func TestTargetMatchesTheOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	words := strings.Fields("the order was shipped on Monday and should arrive within three to five business days running ran runs Runner")
	texts := append([]string(nil), oracleTexts...)
	for range 30 {
		var b strings.Builder
		for i := range r.IntN(90) {
			if i > 0 {
				b.WriteString([]string{" ", " ", " ", "\n", ". ", ".\n"}[r.IntN(6)])
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		texts = append(texts, b.String())
	}
	scorers := targetScorers(t)
	for _, a := range texts {
		tgt := NewTarget(a)
		for _, b := range texts {
			checkTarget(t, scorers, tgt, b)
		}
	}
}

// TestTokensWithoutTargetUnchanged checks that tokens of both texts still
// score as Score, with StemTokens on them.
func TestTokensWithoutTargetUnchanged(t *testing.T) {
	scorers := targetScorers(t)
	for _, a := range oracleTexts {
		for _, b := range oracleTexts {
			base := scorers[0].UnstemmedTokens(a, b)
			for _, s := range scorers {
				tk := base
				if s.Stems() {
					tk = s.StemTokens(base)
				}
				if got, want := s.ScoreTokens(tk), s.Score(a, b); got != want {
					t.Fatalf("%s %+v (%q, %q): %+v, Score gives %+v", s.typ, s.opts, a, b, got, want)
				}
			}
		}
	}
}

// TestTargetConcurrent scores many predictions against one shared
// Target from many goroutines (run it with -race): the scores are those
// of sequential scoring, and the target's lazily built data is built once.
func TestTargetConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	words := strings.Fields("the order was shipped on Monday and should arrive within three to five business days running ran runs Runner")
	target := longText(r, 150, 12, words)
	preds := make([]string, 24)
	for k := range preds {
		preds[k] = longText(r, 40+r.IntN(120), 1+r.IntN(30), words)
	}
	scorers := targetScorers(t)
	want := make([][]Score, len(preds))
	for k, p := range preds {
		want[k] = scoresAgainst(scorers, NewTarget(target), p)
	}
	shared := NewTarget(target)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for k := range preds {
					k := (k + g + round) % len(preds)
					got := scoresAgainst(scorers, shared, preds[k])
					for i := range got {
						if got[i] != want[k][i] {
							t.Errorf("goroutine %d, prediction %d, %s %+v: %+v, sequential %+v", g, k, scorers[i].typ, scorers[i].opts, got[i], want[k][i])
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzTargetTokens checks scoring against a prepared Target, every type,
// stemming or not, against Score on fuzzed texts.
func FuzzTargetTokens(f *testing.F) {
	for i, a := range oracleTexts {
		f.Add(a, oracleTexts[(i+3)%len(oracleTexts)])
	}
	f.Add("running runs\nran", "run RUNS\n\nrunner")
	f.Add(testtext.Answer(90, 3), testtext.Answer(70, 0))
	f.Add("Confirmation \u212aelvin İstanbul", "CONFIRMATIONS kelvin istanbul\n\u212a")
	f.Add("! 0", "0")
	scorers := targetScorers(f)
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 4000 || len(b) > 4000 {
			return
		}
		tgt := NewTarget(a)
		checkTarget(t, scorers, tgt, b)
		checkTarget(t, scorers, tgt, a)
	})
}
