package extractor

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
)

// scanCases are JSON texts, valid and not, on which the scanner must agree
// with gjson.Valid.
var scanCases = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `truex`, `0`, `-0`, `01`, `-`, `1.`, `1.5`, `1e`, `1e+`, `1E-7`,
	`-12.5e10`, `.5`, `+1`, `""`, `"a"`, `"\"`, `"\q"`, `"\u00e9"`, `"\u00g9"`, `"\u12"`, `"tab	in"`,
	"\"nul\x00\"", "\"bad \xff utf8\"", `"esc \" \\ \/ \b \f \n \r \t"`, `[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`,
	`{}`, `{"a":1}`, `{"a" : [1, {"b":null}] }`, `{"a":1,}`, `{"a"}`, `{a:1}`, `{"a":1 "b":2}`, `[1]]`,
	` [1] `, "[1]\n\t\r", `[1] x`, `{"a\"b":"c"}`, `{"k":"0123456789abcdefghij\"klmnop"}`,
	`"` + strings.Repeat("x", 37) + `"`, `"` + strings.Repeat("é", 20) + "\x1f" + `"`,
	strings.Repeat("[", 40) + strings.Repeat("]", 40),
}

func TestScanValidMatchesGJSON(t *testing.T) {
	for _, s := range scanCases {
		if got, want := scanValid(s), gjson.Valid(s); got != want {
			t.Errorf("scanValid(%q) = %v, gjson.Valid %v", s, got, want)
		}
	}
}

func TestScanDeclinesDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", maxScanDepth+1) + strings.Repeat("]", maxScanDepth+1)
	if scanValid(deep) {
		t.Error("scanValid accepted nesting deeper than maxScanDepth")
	}
	ok := strings.Repeat("[", maxScanDepth) + strings.Repeat("]", maxScanDepth)
	if !scanValid(ok) {
		t.Error("scanValid declined nesting of maxScanDepth")
	}
}

// TestScanStringBoundaries moves a string's special bytes across the
// 8-byte blocks the scanner reads at once.
func TestScanStringBoundaries(t *testing.T) {
	for n := 0; n < 24; n++ {
		pad := strings.Repeat("a", n)
		for _, tail := range []string{`"`, `\""`, `\u0041"`, "\x01\"", `\x"`, "é\"", ""} {
			s := `"` + pad + tail
			if got, want := scanValid(s), gjson.Valid(s); got != want {
				t.Errorf("scanValid(%q) = %v, gjson.Valid %v", s, got, want)
			}
		}
	}
}

// FuzzScanValid checks that the scanner accepts exactly the JSON gjson
// accepts, up to its nesting bound.
func FuzzScanValid(f *testing.F) {
	for _, s := range scanCases {
		f.Add(s)
	}
	for _, s := range fastCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, want := scanValid(s), gjson.Valid(s)
		if got == want {
			return
		}
		if !got && strings.Count(s, "[")+strings.Count(s, "{") > maxScanDepth {
			return // declined for depth
		}
		t.Errorf("scanValid(%q) = %v, gjson.Valid %v", s, got, want)
	})
}

// TestIsJSONObjectMatchesJSONObj checks the scanner's fast path of
// isJSONObject against jsonobj.Valid, nesting past the scanner's bound
// included.
func TestIsJSONObjectMatchesJSONObj(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", maxScanDepth+8) + strings.Repeat("]", maxScanDepth+8) + `}`
	cases := append([]string{deep, " \n{\"a\":1}\t", `{"a":1}{}`, `{`, `x{}`, ` {"a":"\u00e9"} `}, scanCases...)
	for _, s := range cases {
		if got, want := isJSONObject(s), jsonobj.Valid(s); got != want {
			t.Errorf("isJSONObject(%.40q) = %v, jsonobj.Valid %v", s, got, want)
		}
	}
}
