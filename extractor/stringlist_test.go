package extractor

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// gjsonStringList is plainStringList without its compact fast path.
func gjsonStringList(t string) ([]string, bool) {
	if !gjson.Valid(t) {
		return nil, false
	}
	var out []string
	ok := true
	gjson.Parse(t).ForEach(func(_, v gjson.Result) bool {
		ok = v.Type == gjson.String && strings.IndexByte(v.Raw, '\\') < 0 && utf8.ValidString(v.Raw)
		out = append(out, v.Str)
		return ok
	})
	if !ok {
		return nil, false
	}
	if out == nil {
		out = []string{}
	}
	return out, true
}

// TestCompactASCIIList checks the fast path of plainStringList against
// gjson on the converter's rendering and on texts it must decline.
func TestCompactASCIIList(t *testing.T) {
	cases := []string{
		`[]`, `[""]`, `["stop"]`, `["tool_calls","stop"]`, `["a]","[b"]`, `["a b"]`, `["x","",""]`,
		`[`, `]`, `[,]`, `["a",]`, `["a""b"]`, `["a" ]`, `[ "a"]`, `["a\"b"]`, `["a\\b"]`, `["é"]`,
		`["a"]x`, `["abc]`, `["a"`, `[1]`, `["a",1]`, `[null]`, "[\"a\tb\"]", `"a"`, ``, `["a","b"`,
	}
	for _, c := range cases {
		got, ok := compactASCIIList(c)
		if !ok {
			continue
		}
		want, wok := gjsonStringList(c)
		if !wok || !reflect.DeepEqual(got, want) {
			t.Errorf("compactASCIIList(%q) = %q, gjson reads %q (ok %v)", c, got, want, wok)
		}
	}
	for _, c := range []string{`[]`, `["stop"]`, `["tool_calls","stop"]`, `["a]","[b"]`} {
		if _, ok := compactASCIIList(c); !ok {
			t.Errorf("compactASCIIList(%q) declined the converter's form", c)
		}
	}
	for _, c := range []string{`["a",]`, `["a""b"]`, `["a" ]`, `["a\"b"]`, `["é"]`, `["abc]`, `["a","b"`} {
		if _, ok := compactASCIIList(c); ok {
			t.Errorf("compactASCIIList(%q) accepted a text outside its form", c)
		}
	}
}

func FuzzCompactASCIIList(f *testing.F) {
	for _, s := range []string{`[]`, `["a"]`, `["a","b"]`, `["a",]`, `["a\"b"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := compactASCIIList(s)
		if !ok {
			return
		}
		if want, wok := gjsonStringList(s); !wok || !reflect.DeepEqual(got, want) {
			t.Fatalf("compactASCIIList(%q) = %q, gjson reads %q (ok %v)", s, got, want, wok)
		}
	})
}
