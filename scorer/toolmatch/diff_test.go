package toolmatch

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// diffSeeds are argument texts for the differential fuzz targets.
var diffSeeds = []string{
	``, ` `, "\v", `{}`, `null`, `[]`, `{"a":1}`, ` {"a":1.0} `, "\v{\"a\":1}", "{\"a\":1}\u00a0", "\u0085{}",
	`{"a":1,"a":2}`, `{"b":2,"a":1,"b":3}`, `{"a":-0}`, `{"a":0.0}`, `{"a":1e0}`, `{"a":100}`, `{"a":1E+2}`,
	`{"a":12345678901234567890123456789012}`, `{"a":123456789012345678901234567890123}`, `{"a":1e32}`, `{"a":1e31}`,
	`{"a":-123456789012345678901234567890123}`, `{"a":1e999999999999999999999}`, `{"a":9007199254740993}`,
	`{"a":9007199254740993.0}`, `{"a":0.1}`, `{"a":0.10000000000000001}`, `{"a":1e400}`, `{"a":-1e400}`,
	`{"a":true}`, `{"a":false}`, `{"a":[true,false,1,0,true,true,true,true,true,true,true]}`,
	`{"a":"\u00e9"}`, `{"a":"é"}`, `{"a":"\ud83d\ude00"}`, `{"a":"\ud800"}`, `{"a":"\udc00\ud800x"}`,
	"{\"a\":\"\xff\"}", `{"a":"\q"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, "{\"a\":\"\\\x01\"}", `{"a":"x\"y\\z\/"}`,
	`{"a":"\b\f\n\r\t"}`, `{"a":1} x`, `{"a":}`, `{"a" 1}`, `{1:2}`, `[1,]`, `[1 2]`, `{"a":1,}`, `-`, `01`, `1.`,
	`1e`, `1e+`, `tru`, `nul`, `"abc`, `"abc\`, "\"a\x01\"", `[[[[[[]]]]]]`, `{"k":{"k":{"k":{"k":1}}}}`,
	`{"query": "weather in city 3", "limit": 4, "units": "metric", "filters": {"days": 3, "hourly": true}}`,
	`{"p":0,"o":1,"n":2,"m":3,"l":4,"k":5,"j":6,"i":7,"h":8,"g":9,"f":10,"e":11,"d":12,"c":13,"b":14,"a":15,"q":16,"a":17}`,
}

// checkParseDiff fails unless Parse gives the old parser's value or
// error for s.
func checkParseDiff(t *testing.T, s string) {
	t.Helper()
	got, gerr := Parse(s)
	want, werr := oldParse(s)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("Parse(%q) error %v, old %v", s, gerr, werr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse(%q) = %#v, old %#v", s, got, want)
	}
}

// blankVariants returns s with JSON and other Unicode blanks around it.
func blankVariants(s string) []string {
	return []string{s, " " + s, s + "\n", "\t" + s + "\r ", "\v" + s, s + "\f", "\u00a0" + s, s + "\u2003"}
}

// checkKeysDiff fails unless the keys of a and b are equal exactly when
// the old keys are, under every equality, for the text as given and with
// blanks around it, from Key, ArgsKey, ExactArgsKey and Prepared.
func checkKeysDiff(t *testing.T, a, b string) {
	t.Helper()
	texts := append(blankVariants(a), blankVariants(b)...)
	calls := make([]Call, 0, 2*len(texts))
	for _, s := range texts {
		calls = append(calls, Call{Name: "f", Args: s}, Call{Name: "g", Args: s})
	}
	p := Prepare(calls)
	type keyFn struct {
		name     string
		got, old func(i int) string
	}
	fns := []keyFn{
		{"ExactArgsKey", func(i int) string { return ExactArgsKey(calls[i].Args) }, func(i int) string { return oldExactArgsKey(calls[i].Args) }},
		{"Prepared.ExactArgsKey", p.ExactArgsKey, func(i int) string { return oldExactArgsKey(calls[i].Args) }},
		{"f1", func(i int) string { return p.f1Keys()[i] }, func(i int) string {
			c := calls[i]
			if strings.TrimSpace(c.Args) == "" {
				c.Args = "{}"
			}
			return oldKey(c, PythonEqual)
		}},
	}
	for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
		fns = append(fns,
			keyFn{"Key", func(i int) string { return Key(calls[i], eq) }, func(i int) string { return oldKey(calls[i], eq) }},
			keyFn{"ArgsKey", func(i int) string { return ArgsKey(calls[i].Args, eq) }, func(i int) string { return oldArgsKey(calls[i].Args, eq) }},
			keyFn{"Prepared.Keys", func(i int) string { return p.Keys(eq)[i] }, func(i int) string { return oldKey(calls[i], eq) }},
		)
	}
	for _, f := range fns {
		got := make([]string, len(calls))
		old := make([]string, len(calls))
		for i := range calls {
			got[i], old[i] = f.got(i), f.old(i)
		}
		for i := range calls {
			for j := range i {
				if (got[i] == got[j]) != (old[i] == old[j]) {
					t.Fatalf("%s: %+v vs %+v: keys equal %v (%q, %q), old keys equal %v (%q, %q)",
						f.name, calls[i], calls[j], got[i] == got[j], got[i], got[j], old[i] == old[j], old[i], old[j])
				}
			}
		}
	}
	for i := range calls {
		if got, want := p.ExactArgsKey(i), ExactArgsKey(calls[i].Args); got != want {
			t.Fatalf("Prepared.ExactArgsKey(%q) = %q, ExactArgsKey %q", calls[i].Args, got, want)
		}
	}
	for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
		if got, want := p.Keys(eq), Keys(calls, eq); !slices.Equal(got, want) {
			t.Fatalf("Prepared.Keys(%d) = %q, Keys %q", eq, got, want)
		}
	}
}

// FuzzParseDiff checks that Parse decodes every text to the old parser's
// value, or fails with its error.
func FuzzParseDiff(f *testing.F) {
	for _, s := range diffSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkParseDiff(t, s)
		for _, w := range []string{`{"k":` + s + `}`, `[` + s + `]`, `"` + s + `"`} {
			checkParseDiff(t, w)
		}
	})
}

// FuzzKeysDiff checks that argument keys, exact keys and prepared keys
// tell two argument texts apart exactly when the old keys do.
func FuzzKeysDiff(f *testing.F) {
	for i, s := range diffSeeds {
		f.Add(s, diffSeeds[(i*7+3)%len(diffSeeds)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkKeysDiff(t, a, b)
	})
}

// TestKeysDiffSeeds runs the differential checks over every pair of
// seeds.
func TestKeysDiffSeeds(t *testing.T) {
	for _, s := range diffSeeds {
		checkParseDiff(t, s)
	}
	for i, a := range diffSeeds {
		for _, b := range diffSeeds[i:] {
			checkKeysDiff(t, a, b)
		}
	}
}
