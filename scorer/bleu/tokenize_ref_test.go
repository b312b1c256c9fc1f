package bleu

import (
	"slices"
	"strings"
	"testing"
)

// tokenize13aRef is Tokenize13a written as plain passes over the whole
// line, one per regex substitution: the oracle for Tokenize13a's scan,
// which applies the '.', ',' and '-' rules to each pre-token on its own.
func tokenize13aRef(line string) []string {
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.IndexByte(line, '&') >= 0 {
		line = strings.ReplaceAll(line, "&quot;", "\"")
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	// The rules below only test ASCII bytes; a multi-byte character is
	// "not a digit" in every byte, which makes byte-wise matching produce
	// exactly what Python's code-point regexes produce.
	a := make([]byte, 0, 2*len(line)+8)
	a = append(a, ' ')
	for i := 0; i < len(line); i++ {
		c := line[i]
		if isSymbol13a(c) {
			a = append(a, ' ', c, ' ')
		} else {
			a = append(a, c)
		}
	}
	a = append(a, ' ')
	return Fields(string(apply13aRules(a, nil)))
}

var tokenizeCases = []string{
	"", "Hello, world!", "1,000.50-2", "a.b,c", "x.", ".x", "5.", ",5", "1-2-3", "a-b", "-1", "1-",
	"..,,..", "9.,9", "é.ü,", "&amp;&lt;", "-\n<skipped>", "\xff\xfe.", "The U.S. costs $1,000.00 - 20% (est.).",
	"a\u00a0.b", "x\n.y", "1\n-2", "tab\t,5", "\x01.\x01", "3\u2003-4", "..\u3000,,", "a-\n.b", "<skip&amp;ped>.",
}

func TestTokenize13aMatchesPlainPasses(t *testing.T) {
	for _, s := range tokenizeCases {
		if got, want := Tokenize13a(s), tokenize13aRef(s); !slices.Equal(got, want) {
			t.Errorf("Tokenize13a(%q) = %q, plain passes %q", s, got, want)
		}
	}
	long := strings.Repeat("Order 1,234.5 shipped-late; refund 3-4 days. ", 40)
	if got, want := Tokenize13a(long), tokenize13aRef(long); !slices.Equal(got, want) {
		t.Error("Tokenize13a differs from the plain passes on a long text")
	}
}

func FuzzTokenize13aPasses(f *testing.F) {
	for _, s := range tokenizeCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Tokenize13a(s), tokenize13aRef(s); !slices.Equal(got, want) {
			t.Errorf("Tokenize13a(%q) = %q, plain passes %q", s, got, want)
		}
	})
}
