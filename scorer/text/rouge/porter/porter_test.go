package porter

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// TestStemNLTKTable checks every word of the NLTK 3.8 table.
func TestStemNLTKTable(t *testing.T) {
	f, err := os.Open("testdata/nltk38_porter.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, bad := 0, 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("malformed line %q", line)
		}
		n++
		if got := Stem(word); got != want {
			bad++
			if bad <= 20 {
				t.Errorf("Stem(%q) = %q, NLTK 3.8 gives %q", word, got, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 300 {
		t.Fatalf("table has %d words, want at least 300", n)
	}
	if bad > 0 {
		t.Errorf("%d of %d words differ from NLTK 3.8", bad, n)
	}
}

// TestStemDiffersFromOtherPorters pins the words where NLTK_EXTENSIONS
// differs from the original algorithm and from Porter2.
func TestStemDiffersFromOtherPorters(t *testing.T) {
	tests := []struct{ word, want string }{
		{"dying", "die"}, {"lying", "lie"}, {"skies", "sky"}, {"ties", "tie"},
		{"news", "news"}, {"innings", "inning"}, {"proceed", "proceed"},
		{"generously", "gener"}, {"communism", "commun"}, {"this", "thi"},
		{"does", "doe"}, {"Running", "run"}, {"ab", "ab"}, {"", ""},
	}
	for _, tt := range tests {
		if got := Stem(tt.word); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// FuzzStem checks that Stem never panics, is deterministic, and never
// lengthens a lowercase word by more than one letter (the only growth is
// Step 1b's restored 'e').
func FuzzStem(f *testing.F) {
	for _, s := range []string{"caresses", "ies", "eed", "alli", "logi", "ll", "y", "yy", "\xff\xfe", "aeiou"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		got := Stem(word)
		if again := Stem(word); again != got {
			t.Fatalf("Stem(%q) not deterministic: %q then %q", word, got, again)
		}
		if len(got) > len(word)+1 {
			t.Fatalf("Stem(%q) = %q grew by more than one byte", word, got)
		}
	})
}

func BenchmarkStem(b *testing.B) {
	words := []string{"generalizations", "running", "happiness", "the", "organization", "responses"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Stem(words[i%len(words)])
	}
}
