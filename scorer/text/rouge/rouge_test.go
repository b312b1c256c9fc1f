package rouge

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// vector is one shared metric vector (see testdata/vectors.json).
type vector struct {
	Metric string `json:"metric"`
	Input  struct {
		Reference      string `json:"reference"`
		Prediction     string `json:"prediction"`
		UseStemmer     bool   `json:"use_stemmer"`
		SplitSummaries bool   `json:"split_summaries"`
	} `json:"input"`
	Expected       float64 `json:"expected"`
	Tolerance      float64 `json:"tolerance"`
	Source         string  `json:"source"`
	Note           string  `json:"note"`
	ExpectedDetail *struct {
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
		FMeasure  float64 `json:"fmeasure"`
	} `json:"expected_detail"`
}

// TestVectors checks every ROUGE vector: F within its tolerance, and
// precision and recall too when the vector gives them.
func TestVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 30 {
		t.Fatalf("only %d vectors", len(vs))
	}
	for i, v := range vs {
		s, err := NewScorer(v.Metric, Options{UseStemmer: v.Input.UseStemmer, SplitSummaries: v.Input.SplitSummaries})
		if err != nil {
			t.Fatalf("vector %d: %v", i, err)
		}
		got := s.Score(v.Input.Reference, v.Input.Prediction)
		tol := v.Tolerance
		if math.Abs(got.FMeasure-v.Expected) > tol {
			t.Errorf("vector %d (%s, %s): F = %.12g, want %.12g ± %g", i, v.Metric, v.Source, got.FMeasure, v.Expected, tol)
		}
		if d := v.ExpectedDetail; d != nil {
			if math.Abs(got.Precision-d.Precision) > tol || math.Abs(got.Recall-d.Recall) > tol {
				t.Errorf("vector %d (%s): P,R = %.12g,%.12g, want %.12g,%.12g", i, v.Metric, got.Precision, got.Recall, d.Precision, d.Recall)
			}
		}
	}
}

// tokenize returns the tokens of text as NewPair numbers them.
func tokenize(text string, stem bool) []string {
	p := NewPair(text, "", stem)
	toks := make([]string, len(p.target.ids))
	for i, id := range p.target.ids {
		toks[i] = p.toks[id]
	}
	return toks
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		stem bool
		want []string
	}{
		{"Hello, World!", false, []string{"hello", "world"}},
		{"Café naïve résumé", false, []string{"caf", "na", "ve", "r", "sum"}},
		{"東京 is big", false, []string{"is", "big"}},
		{"İstanbul", false, []string{"i", "stanbul"}},
		{"5\u212aM", false, []string{"5km"}},
		{"The price is $1,000.50", false, []string{"the", "price", "is", "1", "000", "50"}},
		{"This does was running", true, []string{"thi", "doe", "was", "run"}},
		{"new news", true, []string{"new", "news"}},
		{"bad\xffutf8", false, []string{"bad", "utf8"}},
		{"  \n\t ", false, nil},
		{"", true, nil},
	}
	for _, tt := range tests {
		got := tokenize(tt.in, tt.stem)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokens of %q (stem %v) = %q, want %q", tt.in, tt.stem, got, tt.want)
		}
	}
}

func TestParseType(t *testing.T) {
	for _, ok := range []string{"rouge1", "rouge9", "rougeL", "rougeLsum"} {
		if _, err := ParseType(ok); err != nil {
			t.Errorf("ParseType(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"rouge0", "rouge10", "rougel", "rougeLSum", "", "bleu"} {
		if _, err := ParseType(bad); err == nil || !strings.Contains(err.Error(), "unknown ROUGE type") {
			t.Errorf("ParseType(%q) = %v, want an unknown-type error", bad, err)
		}
	}
}

// TestLsumSplitSummaries checks that split_summaries splits on sentence
// ends rather than newlines.
func TestLsumSplitSummaries(t *testing.T) {
	ref, pred := "alpha beta. gamma delta.", "gamma delta. alpha beta."
	split, _ := NewScorer("rougeLsum", Options{SplitSummaries: true})
	lines, _ := NewScorer("rougeLsum", Options{})
	// Two sentences per side: each reference sentence is matched whole.
	if got := split.Score(ref, pred); got.FMeasure != 1 {
		t.Errorf("split: %+v, want F = 1", got)
	}
	// One line per side: plain LCS of the two orders is 2 of 4.
	if got := lines.Score(ref, pred); got.FMeasure != 0.5 {
		t.Errorf("lines: %+v, want F = 0.5", got)
	}
}

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three?", []string{"One.", "Two!", "Three?"}},
		{"Mr. Smith went to Washington. He left.", []string{"Mr. Smith went to Washington.", "He left."}},
		{"Pi is 3.14 today. Yes", []string{"Pi is 3.14 today.", "Yes"}},
		{"line one\nline two", []string{"line one\nline two"}},
		{"He said \"go.\" Then left.", []string{"He said \"go.\"", "Then left."}},
		{"J. R. R. Tolkien wrote. Done", []string{"J. R. R. Tolkien wrote.", "Done"}},
		{"Wait... what?", []string{"Wait...", "what?"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := SplitSentences(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("SplitSentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// For two one-line texts rougeLsum takes the plain LCS; the summary-level
// union LCS over the one sentence pair must give the same score.
func TestLsumOneSentenceIsLCS(t *testing.T) {
	words := []string{"the", "cat", "sat", "on", "a", "mat", "dog", "ran"}
	rng := rand.New(rand.NewPCG(7, 11))
	text := func() string {
		w := make([]string, rng.IntN(12))
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	s, err := NewScorer("rougeLsum", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		target, prediction := text(), text()
		p := NewPair(target, prediction, false)
		want := scoreLsum(p.target.lines(), p.prediction.lines(), p.size())
		if got := s.Score(target, prediction); got != want {
			t.Fatalf("rougeLsum(%q, %q) = %+v, union LCS gives %+v", target, prediction, got, want)
		}
	}
}

// TestLCSTable checks every cell of lcsTable, and lcsLength, against the
// longest common subsequences found by trying every subsequence of a
// against a greedy walk of b, on short random token lists.
func TestLCSTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	list := func() []int32 {
		s := make([]int32, rng.IntN(9))
		for i := range s {
			s[i] = int32(rng.IntN(4))
		}
		return s
	}
	// subseqLCS is the longest subsequence of a that is a subsequence of b.
	subseqLCS := func(a, b []int32) int {
		best := 0
		for mask := 0; mask < 1<<len(a); mask++ {
			n, j := 0, 0
			for i := range a {
				if mask&(1<<i) == 0 {
					continue
				}
				for j < len(b) && b[j] != a[i] {
					j++
				}
				if j == len(b) {
					n = -1
					break
				}
				n, j = n+1, j+1
			}
			best = max(best, n)
		}
		return best
	}
	var table []int32
	for range 3000 {
		a, b := list(), list()
		if got, want := lcsLength(a, b), subseqLCS(a, b); got != want {
			t.Fatalf("lcsLength(%v, %v) = %d, want %d", a, b, got, want)
		}
		table = lcsTable(table, a, b)
		for i := 0; i <= len(a); i++ {
			for j := 0; j <= len(b); j++ {
				if got, want := int(table[i*(len(b)+1)+j]), subseqLCS(a[:i], b[:j]); got != want {
					t.Fatalf("lcsTable(%v, %v) cell (%d, %d) = %d, want %d", a, b, i, j, got, want)
				}
			}
		}
	}
}

// TestLsumAgainstFullTables checks scoreLsum, which leaves out of each
// sentence pair's table the target tokens the prediction sentence lacks,
// against rouge-score's _summary_level_lcs transcribed directly: the full
// table of every pair and _backtrack_norec over it, on random multi-line
// texts over a small vocabulary.
func TestLsumAgainstFullTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	lines := func() [][]int32 {
		out := make([][]int32, 1+rng.IntN(4))
		for k := range out {
			out[k] = make([]int32, 1+rng.IntN(10))
			for i := range out[k] {
				out[k][i] = int32(rng.IntN(6))
			}
		}
		return out
	}
	// unionLCS is rouge-score's _union_lcs: the sorted union of the
	// indices of r that _backtrack_norec finds against each sentence.
	unionLCS := func(r []int32, cs [][]int32) map[int]bool {
		union := map[int]bool{}
		for _, c := range cs {
			tab := make([][]int, len(r)+1)
			for i := range tab {
				tab[i] = make([]int, len(c)+1)
			}
			for i := 1; i <= len(r); i++ {
				for j := 1; j <= len(c); j++ {
					if r[i-1] == c[j-1] {
						tab[i][j] = tab[i-1][j-1] + 1
					} else {
						tab[i][j] = max(tab[i-1][j], tab[i][j-1])
					}
				}
			}
			for i, j := len(r), len(c); i > 0 && j > 0; {
				switch {
				case r[i-1] == c[j-1]:
					union[i-1] = true
					i, j = i-1, j-1
				case tab[i][j-1] > tab[i-1][j]:
					j--
				default:
					i--
				}
			}
		}
		return union
	}
	for range 3000 {
		target, prediction := lines(), lines()
		cntT, cntP := map[int32]int{}, map[int32]int{}
		m, n := 0, 0
		for _, r := range target {
			m += len(r)
			for _, id := range r {
				cntT[id]++
			}
		}
		for _, c := range prediction {
			n += len(c)
			for _, id := range c {
				cntP[id]++
			}
		}
		hits := 0
		for _, r := range target {
			union := unionLCS(r, prediction)
			for i, id := range r {
				if union[i] && cntT[id] > 0 && cntP[id] > 0 {
					hits++
					cntT[id]--
					cntP[id]--
				}
			}
		}
		want := newScore(float64(hits)/float64(n), float64(hits)/float64(m))
		if got := scoreLsum(target, prediction, 6); got != want {
			t.Fatalf("scoreLsum(%v, %v) = %+v, full tables give %+v", target, prediction, got, want)
		}
	}
}
