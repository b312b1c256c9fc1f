package rouge

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// checkScanners checks that the tokens tokenizeLines finds in text are
// Tokenize's, line by line, and that bitmapTokens, where it applies,
// finds the same spans and line ends as scanTokens.
func checkScanners(t *testing.T, text string) {
	t.Helper()
	most := len(text)/2 + 1
	spans, ends := make([]tokenSpan, most), make([]int32, most)
	n, nEnds := scanTokens(text, spans, ends)
	var want [][]string
	for _, line := range strings.Split(text, "\n") {
		if toks := Tokenize(line, false); len(toks) > 0 {
			want = append(want, toks)
		}
	}
	var got [][]string
	start := int32(0)
	for _, end := range ends[:nEnds] {
		var line []string
		for _, sp := range spans[start:end] {
			e := sp.end
			if e < 0 {
				e = ^e
			}
			line = append(line, string(lowerToken(nil, text[sp.start:e])))
		}
		got = append(got, line)
		start = end
	}
	if n != int(start) {
		t.Fatalf("%q: %d tokens, lines end at %v", text, n, ends[:nEnds])
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: scanTokens finds %q, Tokenize %q", text, got, want)
	}
	if strings.Contains(text, "\u212a") || strings.Contains(text, "\u0130") {
		return
	}
	var sc scratch
	sc.spans, sc.ends = make([]tokenSpan, most), make([]int32, most)
	bn, bEnds := bitmapTokens(text, &sc)
	if bn != n || !reflect.DeepEqual(sc.spans[:bn], spans[:n]) || !reflect.DeepEqual(sc.ends[:bEnds], ends[:nEnds]) {
		t.Fatalf("%q: bitmapTokens finds %v ends %v, scanTokens %v ends %v", text, sc.spans[:bn], sc.ends[:bEnds], spans[:n], ends[:nEnds])
	}
}

// scannerTexts are texts where the scanners could differ: words across
// the eight-byte loads and 64-byte words of the bitmap, capitals,
// non-ASCII letters and separators, invalid UTF-8, blank lines, and
// lengths at and around multiples of 64.
var scannerTexts = []string{
	"", "a", "A", "\n", "\n\n", "a\n", "\na", " a ", "abcdefgh", "abcdefghi", "ABCDEFGH ABCDEFGHI",
	"Hello, World!\nSecond LINE.\r\nthird", "Café naïve résumé “quoted” — dash", "İstanbul \u212aelvin 5\u212aM aİb",
	"bad\xffutf8\xfe\xc3", strings.Repeat("x", 63), strings.Repeat("y", 64), strings.Repeat("z", 65),
	strings.Repeat("ab ", 21) + "c", strings.Repeat("word ", 13), strings.Repeat("Mixed CASE words\n", 7),
	strings.Repeat("a", 200) + " " + strings.Repeat("B", 130),
}

func TestScannersAgree(t *testing.T) {
	for _, text := range scannerTexts {
		checkScanners(t, text)
	}
	r := rand.New(rand.NewPCG(21, 22))
	pieces := []string{"a", "Z", "7", "word", "Word", "WORD", "longerword", "x", " ", " ", "  ", "\n", "\n\n", ".", ", ", "é", "“", "\xff", "\t", "\r\n"}
	for range 300 {
		var b strings.Builder
		for range r.IntN(80) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkScanners(t, b.String())
	}
}

// FuzzScanners checks both scanners against Tokenize on fuzzed text.
func FuzzScanners(f *testing.F) {
	for _, text := range scannerTexts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4000 {
			return
		}
		checkScanners(t, text)
	})
}
