package bleu

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// vector is one shared metric vector (see testdata/vectors.json).
type vector struct {
	Metric string `json:"metric"`
	Input  struct {
		Prediction        string     `json:"prediction"`
		Reference         string     `json:"reference"`
		Predictions       []string   `json:"predictions"`
		ReferencesStreams [][]string `json:"references_streams"`
		SmoothMethod      string     `json:"smooth_method"`
		SmoothValue       *float64   `json:"smooth_value"`
		Tokenize          string     `json:"tokenize"`
		UseEffectiveOrder bool       `json:"use_effective_order"`
		Lowercase         bool       `json:"lowercase"`
		Correct           []int      `json:"correct"`
		Total             []int      `json:"total"`
		SysLen            int        `json:"sys_len"`
		RefLen            int        `json:"ref_len"`
	} `json:"input"`
	Expected  float64 `json:"expected"`
	Tolerance float64 `json:"tolerance"`
	Source    string  `json:"source"`
}

// TestVectors checks every BLEU vector within its tolerance, on the 0–1
// scale the vectors use (sacrebleu score / 100).
func TestVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) < 20 {
		t.Fatalf("only %d vectors", len(vs))
	}
	for i, v := range vs {
		in := v.Input
		if in.Lowercase {
			t.Fatalf("vector %d asks for lowercase, which this package does not offer", i)
		}
		opts := Options{Tokenizer: in.Tokenize, Smooth: in.SmoothMethod, EffectiveOrder: in.UseEffectiveOrder}
		if in.SmoothValue != nil {
			opts.SmoothValue = *in.SmoothValue
		}
		var got Score
		switch v.Metric {
		case "bleu":
			b, err := New(opts)
			if err != nil {
				t.Fatalf("vector %d: %v", i, err)
			}
			if got, err = b.Sentence(in.Prediction, in.Reference); err != nil {
				if in.Reference == "" {
					continue
				}
				t.Fatalf("vector %d: %v", i, err)
			}
		case "bleu_corpus":
			b, err := New(opts)
			if err != nil {
				t.Fatalf("vector %d: %v", i, err)
			}
			if got, err = b.Corpus(in.Predictions, in.ReferencesStreams); err != nil {
				t.Fatalf("vector %d: %v", i, err)
			}
		case "bleu_from_stats":
			var st Stats
			st.SysLen, st.RefLen = in.SysLen, in.RefLen
			copy(st.Correct[:], in.Correct)
			copy(st.Total[:], in.Total)
			got = Compute(st, in.SmoothMethod, 0, in.UseEffectiveOrder)
		default:
			t.Fatalf("vector %d: unexpected metric %q", i, v.Metric)
		}
		if d := math.Abs(got.Score/100 - v.Expected); d > v.Tolerance {
			t.Errorf("vector %d (%s, %s): %.12g, want %.12g ± %g", i, v.Metric, v.Source, got.Score/100, v.Expected, v.Tolerance)
		}
	}
}

// TestTokenize13a compares with outputs of sacrebleu's 13a regexes as
// Python applies them.
func TestTokenize13a(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, world!", []string{"Hello", ",", "world", "!"}},
		{"It costs $1,000.50.", []string{"It", "costs", "$", "1,000.50", "."}},
		{"e.g. the U.S.", []string{"e", ".", "g", ".", "the", "U", ".", "S", "."}},
		{"a..b,,c 1..2 .,x", []string{"a", ".", ".", "b", ",", ",", "c", "1", ".", ".", "2", ".", ",", "x"}},
		{"x.1 1.x ,5 5,", []string{"x", ".", "1", "1", ".", "x", ",", "5", "5", ","}},
		{"1-2--3 -4 a-b", []string{"1", "-", "2", "-", "-3", "-4", "a-b"}},
		{"well-known 1990-2000", []string{"well-known", "1990", "-", "2000"}},
		{"don't", []string{"don't"}},
		{"a&amp;b &lt;x&gt; &quot;q&quot;", []string{"a", "&", "b", "<", "x", ">", "\"", "q", "\""}},
		{"line-\nbreak<skipped>\nnext", []string{"linebreak", "next"}},
		{"zahăr, alb;", []string{"zahăr", ",", "alb", ";"}},
		{"é.x ü,1", []string{"é", ".", "x", "ü", ",", "1"}},
		{"a\x1cb\u00a0c\u3000d", []string{"a", "b", "c", "d"}},
		{"(x){y}[z]/w", []string{"(", "x", ")", "{", "y", "}", "[", "z", "]", "/", "w"}},
		{"1,000.50-2", []string{"1,000.50", "-", "2"}},
		{"1-2-3 -1 1-", []string{"1", "-", "2", "-", "3", "-1", "1", "-"}},
		{"x. .x 5. ,5 a.b,c", []string{"x", ".", ".", "x", "5", ".", ",", "5", "a", ".", "b", ",", "c"}},
		// the last of a run sticks to a digit after it when the run's length
		// is odd exactly when a digit precedes the run
		{"a..5 1...5 x...5 ,,5 5..5", []string{"a", ".", ".5", "1", ".", ".", ".5", "x", ".", ".", ".", "5", ",", ",5", "5", ".", ".", "5"}},
		{"..,,.. 9.,9", []string{".", ".", ",", ",", ".", ".", "9", ".", ",", "9"}},
		{"The U.S. costs $1,000.00 - 20% (est.).", []string{"The", "U", ".", "S", ".", "costs", "$", "1,000.00", "-", "20", "%", "(", "est", ".", ")", "."}},
		// whitespace other than the space: a no-break space is not a digit,
		// a newline before '-' becomes a space
		{"a\u00a0.b x\n.y 1\n-2 3\u2003-4", []string{"a", ".", "b", "x", ".", "y", "1", "-2", "3", "-4"}},
		{"a-\n.b <skip&amp;ped>.", []string{"a", ".", "b", "<", "skip", "&", "ped", ">", "."}},
		{"\xff\xfe.", []string{"\xff\xfe", "."}},
		{"", nil},
	}
	for _, tt := range tests {
		got := Tokenize13a(tt.in)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize13a(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFields checks the "none" tokenizer: Python's str.split().
func TestFields(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{" a  b\tc\n", []string{"a", "b", "c"}},
		{"\x1c a\x1fb\x1d", []string{"a", "b"}},
		{"a\u00a0b\u2003c\u3000", []string{"a", "b", "c"}},
		{"x\u0085y a\vb\fc\rd", []string{"x", "y", "a", "b", "c", "d"}},
		{"\xff \xfe\x80", []string{"\xff", "\xfe\x80"}},
		{"  ", nil},
	}
	for _, tt := range tests {
		if got := Fields(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Fields(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTokenizeChar checks the "char" tokenizer: every character but
// whitespace.
func TestTokenizeChar(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ab c", []string{"a", "b", "c"}},
		{"é 東\u3000x", []string{"é", "東", "x"}},
		{"\xffa a\x1cb", []string{"\xff", "a", "a", "b"}},
		{" \n", nil},
	}
	for _, tt := range tests {
		if got := TokenizeChar(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("TokenizeChar(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSegmentStats checks statistics worked out by hand.
func TestSegmentStats(t *testing.T) {
	tests := []struct {
		name string
		hyp  string
		refs []string
		want Stats
	}{
		// Papineni et al. (2002): "the" is correct up to its count in one reference
		{"clipped to one reference", "the the the the the the the", []string{"the cat is on the mat", "there is a cat on the mat"},
			Stats{SysLen: 7, RefLen: 7, Correct: [MaxOrder]int{2, 0, 0, 0}, Total: [MaxOrder]int{7, 6, 5, 4}}},
		// x: max(1, 2, 3); y: max(1, 2, 2); "x y" and "y x": 2 each; "x y x":
		// 2, "y x y": 1; "x y x y" and "y x y x": 1 each; length 5 is closest
		{"highest count in any reference", "x y x y x y", []string{"x y", "y x y x", "x y x y x"},
			Stats{SysLen: 6, RefLen: 5, Correct: [MaxOrder]int{5, 4, 3, 2}, Total: [MaxOrder]int{6, 5, 4, 3}}},
		// 3 and 7 are both 2 away: the shorter
		{"empty reference skipped, tie", "one two three four five", []string{"", "one two three", "one two three four five six seven"},
			Stats{SysLen: 5, RefLen: 3, Correct: [MaxOrder]int{5, 4, 3, 2}, Total: [MaxOrder]int{5, 4, 3, 2}}},
		{"blank reference", "the cat", []string{"   "},
			Stats{SysLen: 2, RefLen: 0, Total: [MaxOrder]int{2, 1, 0, 0}}},
		{"empty hypothesis", "", []string{"the cat sat"}, Stats{RefLen: 3}},
		{"trailing whitespace", "the cat \n", []string{"the cat\t"},
			Stats{SysLen: 2, RefLen: 2, Correct: [MaxOrder]int{2, 1, 0, 0}, Total: [MaxOrder]int{2, 1, 0, 0}}},
	}
	b, err := New(SentenceOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got, err := b.SegmentStats(tt.hyp, tt.refs)
		if err != nil || got != tt.want {
			t.Errorf("%s: SegmentStats(%q, %q) = %+v, %v; want %+v", tt.name, tt.hyp, tt.refs, got, err, tt.want)
		}
	}
	if _, err := b.SegmentStats("x", []string{"", ""}); err != ErrEmptyReference {
		t.Errorf("only empty references: %v, want ErrEmptyReference", err)
	}
}

func TestClosestRefLen(t *testing.T) {
	tests := []struct {
		hyp  int
		refs []int
		want int
	}{
		{5, []int{3, 7}, 3}, // tie: the shorter one
		{5, []int{7, 3}, 3},
		{5, []int{6, 2}, 6},
		{0, []int{4}, 4},
	}
	for _, tt := range tests {
		if got := closestRefLen(tt.hyp, tt.refs); got != tt.want {
			t.Errorf("closestRefLen(%d, %v) = %d, want %d", tt.hyp, tt.refs, got, tt.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	for _, o := range []Options{{Tokenizer: "intl"}, {Smooth: "laplace"}, {Smooth: SmoothFloor, SmoothValue: -1}} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) = nil error", o)
		}
	}
	b, _ := New(SentenceOptions())
	if _, err := b.Sentence("x", ""); err != ErrEmptyReference {
		t.Errorf("empty reference: %v, want ErrEmptyReference", err)
	}
	if _, err := b.Corpus([]string{"a", "b"}, [][]string{{"a"}}); err == nil {
		t.Error("mismatched stream length accepted")
	}
}

// FuzzTokenize13a checks that the tokenizer never panics, yields no empty
// or whitespace-bearing tokens and splits as sacrebleu's regular
// expressions do (tokenize13aByRegexp), and that a sentence scores in
// [0, 100] and 100 against itself when it has a token.
func FuzzTokenize13a(f *testing.F) {
	for _, s := range []string{"Hello, world!", "1,000.50-2", "&amp;&lt;", "é.ü,", "-\n<skipped>", "\xff\xfe."} {
		f.Add(s, "reference text.")
	}
	b, err := New(SentenceOptions())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, hyp, ref string) {
		for _, tok := range Tokenize13a(hyp) {
			if tok == "" {
				t.Fatalf("empty token from %q", hyp)
			}
			for _, r := range tok {
				if isPySpace(r) {
					t.Fatalf("token %q from %q holds whitespace", tok, hyp)
				}
			}
		}
		if got, want := Tokenize13a(hyp), tokenize13aByRegexp(hyp); !slices.Equal(got, want) {
			t.Fatalf("Tokenize13a(%q) = %q, the regular expressions give %q", hyp, got, want)
		}
		s, err := b.Sentence(hyp, ref)
		if err != nil {
			return
		}
		if math.IsNaN(s.Score) || s.Score < 0 || s.Score > 100+1e-9 {
			t.Fatalf("score %v out of [0, 100] for %q vs %q", s.Score, hyp, ref)
		}
		if len(Tokenize13a(rstrip(hyp))) > 0 {
			self, _ := b.Sentence(hyp, hyp)
			if math.Abs(self.Score-100) > 1e-9 {
				t.Fatalf("self-BLEU of %q = %v", hyp, self.Score)
			}
		}
	})
}

// tokenize13aByRegexp is sacrebleu's tokenizer_13a written with its
// regular expressions, applied in order with Go's regexp (leftmost,
// non-overlapping, as Python's re.sub): the fuzz test's oracle.
func tokenize13aByRegexp(line string) []string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	line = " " + line + " "
	for _, sub := range []struct{ re, repl string }{
		{"([{-~\\[-` -&(-+:-@/])", " $1 "},
		{"([^0-9])([.,])", "$1 $2 "},
		{"([.,])([^0-9])", " $1 $2"},
		{"([0-9])(-)", "$1 $2 "},
	} {
		line = regexp.MustCompile(sub.re).ReplaceAllString(line, sub.repl)
	}
	return strings.FieldsFunc(line, isPySpace)
}
