package toolmatch

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestPreparedExactArgsKey checks Prepared.ExactArgsKey against
// ExactArgsKey and against the expected equalities, for calls prepared
// together and apart.
func TestPreparedExactArgsKey(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		equal bool
	}{
		{"key order", `{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{"1 and 1.0", `{"a":1}`, `{"a":1.0}`, true},
		{"1 and 1e0", `{"a":1}`, `{"a":1e0}`, true},
		{"100 and 1E+2", `{"a":100}`, `{"a":1E+2}`, true},
		{"-0 and 0", `{"a":-0}`, `{"a":0}`, true},
		{"-0.0e7 and 0", `{"a":-0.0e7}`, `{"a":0}`, true},
		{"fraction and exponent", `{"a":-1.5e-3}`, `{"a":-0.0015}`, true},
		{"big integers told apart", `{"a":12345678901234567890}`, `{"a":12345678901234567891}`, false},
		{"exact, not rounded to a double", `{"a":9007199254740993}`, `{"a":9007199254740993.0}`, true},
		{"exact, not the same double", `{"a":0.1}`, `{"a":0.10000000000000001}`, false},
		{"32-digit integer and its exponent form", `{"a":10000000000000000000000000000000}`, `{"a":1e31}`, true},
		{"33-digit integer and its exponent form", `{"a":100000000000000000000000000000000}`, `{"a":1e32}`, true},
		{"33-digit integer and a fraction", `{"a":100000000000000000000000000000000}`, `{"a":1000000000000000000000000000000000e-1}`, true},
		{"huge exponents by text", `{"a":1e999999999999999999999}`, `{"a":1e999999999999999999998}`, false},
		{"bool is not a number", `{"a":true}`, `{"a":1}`, false},
		{"string is not a number", `{"a":"1"}`, `{"a":1}`, false},
		{"repeated key keeps the last value", `{"a":1,"a":2}`, `{"a":2}`, true},
		{"repeated key keeps its first place", `{"a":1,"b":0,"a":2}`, `{"b":0,"a":2}`, true},
		{"escapes decoded", `{"a":"\u00e9"}`, `{"a":"é"}`, true},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, `{"a":"😀"}`, true},
		{"lone surrogate is U+FFFD", `{"a":"\ud800"}`, `{"a":"\ufffd"}`, true},
		{"invalid UTF-8 is U+FFFD", "{\"a\":\"\xff\"}", `{"a":"\ufffd"}`, true},
		{"array order", `{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{"JSON blanks around", " \t{\"a\":1}\r\n", `{"a":1}`, true},
		{"other blanks make raw text", "\v{\"a\":1}", `{"a":1}`, false},
		{"no-break space makes raw text", "{\"a\":1}\u00a0", `{"a":1}`, false},
		{"same raw text with other blanks", "\v{\"a\":1}", "\v{\"a\":1}", true},
		{"empty text is not {}", ``, `{}`, false},
		{"blank text is raw, not trimmed", ``, ` `, false},
		{"same blank text", ` `, ` `, true},
		{"same invalid text", `not json`, `not json`, true},
		{"invalid text not trimmed", `not json`, ` not json`, false},
		{"trailing data is invalid", `{"a":1} x`, `{"a":1}`, false},
		{"length-prefixed strings", `{"ab":"c"}`, `{"a":"bc"}`, false},
		{"null", `null`, ` null `, true},
		{"deep nesting", strings.Repeat("[", 500) + strings.Repeat("]", 500), strings.Repeat("[", 500) + strings.Repeat("]", 500), true},
		{"too deep is raw text", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + " ", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ka, kb := ExactArgsKey(tt.a), ExactArgsKey(tt.b); (ka == kb) != tt.equal {
				t.Errorf("ExactArgsKey equal = %v, want %v", ka == kb, tt.equal)
			}
			if ka, kb := oldExactArgsKey(tt.a), oldExactArgsKey(tt.b); (ka == kb) != tt.equal {
				t.Errorf("old ExactArgsKey equal = %v, want %v", ka == kb, tt.equal)
			}
			together := Prepare([]Call{{Name: "f", Args: tt.a}, {Name: "g", Args: tt.b}})
			pa, pb := Prepare([]Call{{Name: "f", Args: tt.a}}), Prepare([]Call{{Name: "f", Args: tt.b}})
			for _, k := range [][2]string{
				{together.ExactArgsKey(0), together.ExactArgsKey(1)},
				{pa.ExactArgsKey(0), pb.ExactArgsKey(0)},
				{pa.ExactArgsKey(0), ExactArgsKey(tt.b)},
			} {
				if (k[0] == k[1]) != tt.equal {
					t.Errorf("Prepared.ExactArgsKey equal = %v, want %v (%q, %q)", k[0] == k[1], tt.equal, k[0], k[1])
				}
			}
			if got, want := together.ExactArgsKey(0), ExactArgsKey(tt.a); got != want {
				t.Errorf("Prepared.ExactArgsKey = %q, ExactArgsKey %q", got, want)
			}
		})
	}
}

// TestPreparedKeyEdges checks the keys of every equality on edge cases,
// prepared and unprepared, against the old keys.
func TestPreparedKeyEdges(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		eq    Equality
		equal bool
	}{
		{"duplicate key, last value", `{"a":1,"a":2}`, `{"a":2}`, JSONEqual, true},
		{"duplicate key, not the first value", `{"a":1,"a":2}`, `{"a":1}`, PythonEqual, false},
		{"many duplicate keys", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":0}`, `{"a":0,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17}`, JSONEqual, true},
		{"-0 and 0.0", `{"a":-0}`, `{"a":0.0}`, PythonEqual, true},
		{"-0.0 and 0", `{"a":-0.0}`, `{"a":0}`, JSONEqual, true},
		{"1, 1.0", `{"a":1}`, `{"a":1.0}`, JSONEqual, true},
		{"1, 1e0", `{"a":1}`, `{"a":1e0}`, PythonEqual, true},
		{"big int and its double", `{"a":100000000000000000000}`, `{"a":1e20}`, PythonEqual, true},
		{"big int beyond a double", `{"a":9007199254740993}`, `{"a":9007199254740993.0}`, JSONEqual, false},
		{"true and 1 under Python", `{"a":true}`, `{"a":1}`, PythonEqual, true},
		{"true and 1.0 under Python", `{"a":[true]}`, `{"a":[1.0]}`, PythonEqual, true},
		{"false and 0 under Python", `{"a":false}`, `{"a":-0.0}`, PythonEqual, true},
		{"true and 1 under JSON", `{"a":true}`, `{"a":1}`, JSONEqual, false},
		{"many booleans under Python", `[true,true,true,true,true,true,true,true,true,false]`, `[1,1,1,1,1,1,1,1,1,0]`, PythonEqual, true},
		{"many booleans under JSON", `[true,true,true,true,true,true,true,true,true,false]`, `[1,1,1,1,1,1,1,1,1,0]`, JSONEqual, false},
		{"unicode escapes", `{"\u0061":"\u00e9"}`, `{"a":"é"}`, JSONEqual, true},
		{"invalid UTF-8", "{\"a\":\"\xff\xfe\"}", `{"a":"\ufffd\ufffd"}`, PythonEqual, true},
		{"overflowing floats", `{"a":1e400}`, `{"a":2e400}`, PythonEqual, true},
		{"empty and {} under JSON", ``, `{}`, JSONEqual, true},
		{"empty and null under Python", ` `, `null`, PythonEqual, true},
		{"deep nesting", strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300), strings.Repeat(`{"a":`, 300) + "1.0" + strings.Repeat("}", 300), JSONEqual, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := []Call{{Name: "f", Args: tt.a}, {Name: "f", Args: tt.b}}
			p := Prepare(calls)
			keys := p.Keys(tt.eq)
			for _, k := range [][2]string{
				{keys[0], keys[1]},
				{Key(calls[0], tt.eq), Key(calls[1], tt.eq)},
				{oldKey(calls[0], tt.eq), oldKey(calls[1], tt.eq)},
			} {
				if (k[0] == k[1]) != tt.equal {
					t.Errorf("keys equal = %v, want %v (%q, %q)", k[0] == k[1], tt.equal, k[0], k[1])
				}
			}
		})
	}
}

// TestParseEdges checks Parse against the old parser on edge cases.
func TestParseEdges(t *testing.T) {
	for _, s := range []string{
		`{"a":1,"a":2,"b":3}`, `{"a":{"x":1},"a":[2]}`, `-0`, `1.0`, `1e0`, `1E+2`, `-1.5e-3`,
		`123456789012345678901234567890`, `"\u00e9\ud83d\ude00\ud800\udc00"`, `"\ud800x"`, "\"\xff\xc3\"", `"\/\b\f\n\r\t\"\\"`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"k":`, 3000) + "null" + strings.Repeat("}", 3000),
		`{"a":"\x"}`, `{"a":"\u00g0"}`, "\"\\\x01\"", `"\u12"`, `"abc\`, `{"a" : 1 , "b" : [ 1 , 2 ] }`,
		"{\"a\"\t:\n1\r}", `[1,2,]`, `{,}`, `{"a":1 "b":2}`, `[-]`, `[01]`, `[1.]`, `[1e]`, `[.5]`, `[tru]`, `[nulL]`,
		`{"a":1}}`, ` `, ``,
	} {
		checkParseDiff(t, s)
	}
}

// TestConcurrentScoring scores many predicted trajectories from several
// goroutines against one shared reference Prepared, whose derived data
// is built on first use, and checks that they get the results of
// sequential scoring.
func TestConcurrentScoring(t *testing.T) {
	ref := []Call{
		{Name: "search", Args: `{"q": "x", "n": 1, "opts": {"b": true}}`},
		{Name: "book", Args: `{"id": 7, "when": "today"}`},
		{Name: "search", Args: ` {"n": 1.0, "q": "y"} `},
		{Name: "cancel", Args: ``},
	}
	var preds [][]Call
	for i := 0; i < 64; i++ {
		var pred []Call
		for j := 0; j <= i%6; j++ {
			c := ref[(i+j)%len(ref)]
			if (i+j)%3 == 0 {
				c.Args = fmt.Sprintf(`{"q": "x", "n": %d, "opts": {"b": %v}}`, j%2, j%2 == 1)
			}
			pred = append(pred, c)
		}
		preds = append(preds, pred)
	}
	type result struct {
		keys                  [3][]string
		exact                 []string
		exactM, inOrder, anyO bool
		precision, recall     float64
		matched               int
		adk                   [3]bool
		accStrict, accAny     float64
		f1, f1p, f1r          float64
	}
	score := func(pred []Call, rp *Prepared) result {
		pp := Prepare(pred)
		var r result
		for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
			r.keys[eq] = pp.Keys(eq)
		}
		for i := range pred {
			r.exact = append(r.exact, pp.ExactArgsKey(i))
		}
		pk, rk := pp.Keys(JSONEqual), rp.Keys(JSONEqual)
		r.exactM, r.inOrder, r.anyO = ExactMatch(pk, rk), InOrderMatch(pk, rk), AnyOrderMatch(pk, rk)
		r.precision, r.recall, r.matched = Precision(pk, rk), Recall(pk, rk), Matched(pk, rk)
		for i, m := range []MatchType{MatchExact, MatchInOrder, MatchAnyOrder} {
			r.adk[i] = PreparedTrajectoryMatches(pp, rp, m, false)
		}
		r.accStrict = PreparedToolCallAccuracy(pp, rp, true, ArgExact)
		r.accAny = PreparedToolCallAccuracy(pp, rp, false, ArgLevenshtein)
		r.f1, r.f1p, r.f1r = PreparedToolCallF1(pp, rp)
		return r
	}
	want := make([]result, len(preds))
	for i, pred := range preds {
		want[i] = score(pred, Prepare(ref))
	}
	shared := Prepare(ref)
	got := make([]result, len(preds))
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(preds); i += 8 {
				got[i] = score(preds[i], shared)
			}
		}()
	}
	wg.Wait()
	for i := range preds {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("trajectory %d: concurrent %+v, sequential %+v", i, got[i], want[i])
		}
	}
}
