package bleu

import (
	"slices"
	"strings"
	"testing"
)

var fieldsCases = []string{
	"", " ", "a", " a  b\tc\n", "\x1c a\x1fb\x1d", "a\u00a0b\u2003c\u3000", "x\u0085y", "\xff \xfe\x80",
	"trailing ", "  leading", "é ü", "a\vb\fc\rd",
}

// TestFieldsMatchesFieldsFunc checks the splitter against
// strings.FieldsFunc with Python's whitespace.
func TestFieldsMatchesFieldsFunc(t *testing.T) {
	for _, s := range fieldsCases {
		if got, want := Fields(s), strings.FieldsFunc(s, isPySpace); !slices.Equal(got, want) {
			t.Errorf("Fields(%q) = %q, FieldsFunc %q", s, got, want)
		}
	}
}

func FuzzFields(f *testing.F) {
	for _, s := range fieldsCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Fields(s), strings.FieldsFunc(s, isPySpace); !slices.Equal(got, want) {
			t.Errorf("Fields(%q) = %q, FieldsFunc %q", s, got, want)
		}
	})
}
