package rouge

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// scoreOracle is ROUGE written plainly: tokens as strings per call (each
// rougeLsum sentence tokenized on its own), maps for n-gram counts, the
// full DP table for LCS. The scorers' shared, interned and bit-parallel
// paths must give exactly its scores.
func scoreOracle(typ Type, opts Options, target, prediction string) Score {
	tok := func(s string) []string { return Tokenize(s, opts.UseStemmer) }
	switch {
	case typ == TypeLsum:
		return lsumOracle(opts, target, prediction)
	case typ == TypeL:
		t, p := oracleIDs(tok(target), tok(prediction))
		if len(t) == 0 || len(p) == 0 {
			return Score{}
		}
		l := lcsLengthDP(t, p)
		return newScore(float64(l)/float64(len(p)), float64(l)/float64(len(t)))
	}
	n := typ.N()
	t, p := tok(target), tok(prediction)
	count := func(toks []string) map[string]int {
		m := map[string]int{}
		for i := 0; i+n <= len(toks); i++ {
			m[strings.Join(toks[i:i+n], " ")]++
		}
		return m
	}
	tc, pc := count(t), count(p)
	overlap := 0
	for g, c := range tc {
		overlap += min(c, pc[g])
	}
	return ngramScore(overlap, max(len(t)-n+1, 0), max(len(p)-n+1, 0))
}

// oracleIDs numbers the tokens of both lists with one map.
func oracleIDs(lists ...[]string) (a, b []int32) {
	m := map[string]int32{}
	out := make([][]int32, len(lists))
	for k, l := range lists {
		for _, s := range l {
			id, ok := m[s]
			if !ok {
				id = int32(len(m))
				m[s] = id
			}
			out[k] = append(out[k], id)
		}
	}
	return out[0], out[1]
}

// lsumOracle is rouge-score's _summary_level_lcs with its _union_lcs over
// the DP table.
func lsumOracle(opts Options, target, prediction string) Score {
	split := func(s string) []string {
		if opts.SplitSummaries {
			return SplitSentences(s)
		}
		return strings.Split(s, "\n")
	}
	m := map[string]int32{}
	ids := func(text string) [][]int32 {
		var out [][]int32
		for _, sent := range split(text) {
			if sent == "" {
				continue
			}
			var s []int32
			for _, w := range Tokenize(sent, opts.UseStemmer) {
				id, ok := m[w]
				if !ok {
					id = int32(len(m))
					m[w] = id
				}
				s = append(s, id)
			}
			out = append(out, s)
		}
		return out
	}
	ref, can := ids(target), ids(prediction)
	if len(ref) == 0 || len(can) == 0 {
		return Score{}
	}
	cntR, cntC := map[int32]int{}, map[int32]int{}
	mTok, nTok := 0, 0
	for _, r := range ref {
		mTok += len(r)
		for _, id := range r {
			cntR[id]++
		}
	}
	for _, c := range can {
		nTok += len(c)
		for _, id := range c {
			cntC[id]++
		}
	}
	if mTok == 0 || nTok == 0 {
		return Score{}
	}
	hits := 0
	for _, r := range ref {
		mark := make([]bool, len(r))
		for _, c := range can {
			lcsIndicesDP(r, c, mark)
		}
		for i, ok := range mark {
			if id := r[i]; ok && cntC[id] > 0 && cntR[id] > 0 {
				hits++
				cntC[id]--
				cntR[id]--
			}
		}
	}
	return newScore(float64(hits)/float64(nTok), float64(hits)/float64(mTok))
}

// oracleTexts are texts where sharing, interning, stemming and sentence
// handling could go wrong.
var oracleTexts = []string{
	"", "the", "The cat sat on the mat.\nThe dog sat on the log.", "running runs ran runner\n\nrunning",
	"a b a b a b\na b", "Café naïve İstanbul \u212a elvin", "\n\n\n", "one. two! three? four\nfive",
	"Refunds are processed once the warehouse has inspected the returned items.\nReturns are accepted within thirty days.",
	"generously generous generation generate generated\nconditional conditionally", "x y z\n \n x y z x",
}

func TestScorersMatchTheOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	texts := append([]string(nil), oracleTexts...)
	words := strings.Fields("the order was shipped on Monday and should arrive within three to five business days running ran")
	for range 40 {
		var b strings.Builder
		for i := range r.IntN(60) {
			if i > 0 {
				b.WriteString([]string{" ", " ", " ", "\n", ". ", ".\n"}[r.IntN(6)])
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		texts = append(texts, b.String())
	}
	for _, typ := range Types() {
		for _, opts := range []Options{{}, {UseStemmer: true}, {SplitSummaries: true}, {UseStemmer: true, SplitSummaries: true}} {
			s, err := NewScorer(string(typ), opts)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range texts {
				for _, b := range texts[max(0, i-6) : i+1] {
					checkOracle(t, s, a, b)
					checkOracle(t, s, b, a)
				}
			}
		}
	}
}

func checkOracle(t *testing.T, s *Scorer, target, prediction string) {
	t.Helper()
	want := scoreOracle(s.typ, s.opts, target, prediction)
	if got := s.Score(target, prediction); !sameScore(got, want) {
		t.Fatalf("%s %+v Score(%q, %q) = %+v, oracle %+v", s.typ, s.opts, target, prediction, got, want)
	}
	if got := s.ScoreTokens(s.Tokens(target, prediction)); !sameScore(got, want) {
		t.Fatalf("%s %+v ScoreTokens(%q, %q) = %+v, oracle %+v", s.typ, s.opts, target, prediction, got, want)
	}
	if s.opts.UseStemmer {
		// stemmed tokens derived from shared unstemmed ones
		if got := s.ScoreTokens(NewTokens(target, prediction).withStems(s.stems)); !sameScore(got, want) {
			t.Fatalf("%s %+v on derived stems (%q, %q) = %+v, oracle %+v", s.typ, s.opts, target, prediction, got, want)
		}
	}
}

func sameScore(a, b Score) bool {
	eq := func(x, y float64) bool { return x == y || math.Abs(x-y) < 1e-15 }
	return eq(a.Precision, b.Precision) && eq(a.Recall, b.Recall) && eq(a.FMeasure, b.FMeasure)
}

// FuzzScorersMatchTheOracle checks every type and option against the
// oracle on fuzzed texts.
func FuzzScorersMatchTheOracle(f *testing.F) {
	for i, a := range oracleTexts {
		f.Add(a, oracleTexts[(i+3)%len(oracleTexts)])
	}
	var scorers []*Scorer
	for _, typ := range Types() {
		for _, opts := range []Options{{}, {UseStemmer: true}, {SplitSummaries: true}} {
			s, err := NewScorer(string(typ), opts)
			if err != nil {
				f.Fatal(err)
			}
			scorers = append(scorers, s)
		}
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a) > 4000 || len(b) > 4000 {
			return
		}
		for _, s := range scorers {
			checkOracle(t, s, a, b)
		}
	})
}
