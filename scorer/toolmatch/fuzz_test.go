package toolmatch

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzParseToolCallOutput checks that any text decodes or fails cleanly,
// that Decode agrees with encoding/json on it, and that a decoded
// output's calls compared with themselves score 1.
func FuzzParseToolCallOutput(f *testing.F) {
	f.Add(`{"content": "", "tool_calls": [{"name": "f", "arguments": {"a": 1}}]}`)
	f.Add(`{"tool_calls": [{"name": "f", "arguments": "{\"a\": 1.0}"}]}`)
	f.Add(`{"tool_calls": [{"foo": "f"}]}`)
	f.Add(`{"tool_calls": {}}`)
	f.Add(`[1, 2]`)
	f.Add(`{"tool_calls": [{"name": "é", "arguments": {"k": "\u0000\ud83d\ude00"}}]}`)
	for _, s := range []string{"[01]", "-", "1.", "1e+", `"\u12"`, "\"\x01\"", `[1,]`, `{"a" 1}`, " \t\r\n1 ", "1\f", "\"\xff\"", `[tru]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecode(t, s)
		out, err := ParseToolCallOutput(s)
		if err != nil {
			return
		}
		if out.Valid() != (out.Problem() == "") {
			t.Fatalf("Valid %v, Problem %q", out.Valid(), out.Problem())
		}
		for _, sc := range []float64{
			PairScores(out.Calls, out.Calls, KeyMatch),
			PairScores(out.Calls, out.Calls, func(p, r []Member) float64 { return KVMatch(p, r, false) }),
			PairScores(out.Calls, out.Calls, func(p, r []Member) float64 { return KVMatch(p, r, true) }),
		} {
			if sc != 1 {
				t.Fatalf("output compared with itself scores %v", sc)
			}
		}
	})
}

// FuzzArgsEquality checks that argument keys are deterministic and
// reflexive, that JSON equality implies Python equality, that key
// equality agrees with encoding/json's equality where numbers cannot
// differ in their reading, and that PyStr never panics.
func FuzzArgsEquality(f *testing.F) {
	f.Add(`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1.0}`)
	f.Add(`{"a":"x"}`, `{"a":"y"}`)
	f.Add(`{"a":1e400}`, `{"a":2e400}`)
	f.Add(``, `{}`)
	f.Add(`{"a":{"b":1}}`, `{"a":{"b":true}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, eq := range []Equality{JSONEqual, PythonEqual} {
			k1, k2 := argsKey(a, eq), argsKey(a, eq)
			e1, e2 := exactArgsKey(a), exactArgsKey(a)
			if k1 != k2 || e1 != e2 {
				t.Fatal("key not deterministic")
			}
		}
		ka, kb := argsKey(a, JSONEqual), argsKey(b, JSONEqual)
		if ka == kb && argsKey(a, PythonEqual) != argsKey(b, PythonEqual) && strings.TrimSpace(a) != "" && strings.TrimSpace(b) != "" {
			t.Fatalf("JSON-equal but not Python-equal: %q %q", a, b)
		}
		if v, err := Decode(a); err == nil {
			_ = PyStr(&v)
		}
		var va, vb any
		if json.Unmarshal([]byte(a), &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && !hasNumber(a) && !hasNumber(b) {
			ja, _ := json.Marshal(va)
			jb, _ := json.Marshal(vb)
			if (string(ja) == string(jb)) != (ka == kb) {
				t.Fatalf("%q vs %q: encoding/json equal %v, keys equal %v", a, b, string(ja) == string(jb), ka == kb)
			}
		}
	})
}

// hasNumber reports whether s may hold a number, whose float64 decoding
// in encoding/json may differ from Python's int/float view.
func hasNumber(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}

// fuzzCalls reads a call list: one call per line, its name before the
// first space and its arguments after it.
func fuzzCalls(s string) []Call {
	if s == "" {
		return nil
	}
	var calls []Call
	for _, line := range strings.Split(s, "\n") {
		name, args, _ := strings.Cut(line, " ")
		calls = append(calls, Call{Name: name, Arguments: args})
	}
	return calls
}

// FuzzMetrics feeds arbitrary call lists to every metric function and
// checks that scores lie in [0, 1], that a list compared with itself
// scores as equal lists do, and the symmetries of the measures that are
// symmetric.
func FuzzMetrics(f *testing.F) {
	f.Add("f {\"a\":1}\ng {}", "g \nf {\"a\":1.0}")
	f.Add("f {\"a\":true}\nf {\"a\":1}", "f {\"a\":1}")
	f.Add("search {\"q\":\"x\",\"n\":[1,2]}\nsearch {\"n\":[1,2],\"q\":\"x\"}\nbook not json", "book not json\nsearch {\"q\":\"x\"}")
	f.Add("", "f null")
	f.Fuzz(func(t *testing.T, ps, rs string) {
		pred, ref := fuzzCalls(ps), fuzzCalls(rs)
		unit := func(what string, x float64) {
			if !(x >= 0 && x <= 1) {
				t.Fatalf("%s = %v, out of [0, 1]", what, x)
			}
		}
		for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
			c, back, self := Compare(pred, ref, keyBy(eq)), Compare(ref, pred, keyBy(eq)), Compare(pred, pred, keyBy(eq))
			ex, io, ao := c.ExactMatch(), c.InOrderMatch(), c.AnyOrderMatch()
			if ex && !io || io && !ao {
				t.Fatalf("exact %v in-order %v any-order %v", ex, io, ao)
			}
			unit("precision", c.Precision())
			unit("recall", c.Recall())
			if (c.Recall() == 1) != ao {
				t.Fatalf("recall %v, any-order %v", c.Recall(), ao)
			}
			if back.Matched() != c.Matched() || back.ExactMatch() != ex {
				t.Fatalf("not symmetric: matched %d / %d", c.Matched(), back.Matched())
			}
			if !self.ExactMatch() || self.Precision() != 1 || self.Recall() != 1 {
				t.Fatal("calls do not match themselves")
			}
		}
		for _, m := range []MatchType{MatchExact, MatchInOrder, MatchAnyOrder} {
			if !TrajectoryMatches(pred, pred, m, keyBy(PythonEqual)) {
				t.Fatalf("%v: calls do not match themselves", m)
			}
		}
		f1, p, r := ToolCallF1(pred, ref, keyBy(PythonEqual))
		unit("F1", f1)
		unit("F1 precision", p)
		unit("F1 recall", r)
		if bf1, bp, br := ToolCallF1(ref, pred, keyBy(PythonEqual)); bf1 != f1 || bp != r || br != p {
			t.Fatalf("F1 not symmetric: %v %v %v / %v %v %v", f1, p, r, bf1, bp, br)
		}
		if sf1, _, _ := ToolCallF1(pred, pred, keyBy(PythonEqual)); sf1 != boolScore(len(pred) > 0) {
			t.Fatalf("F1 of calls with themselves = %v", sf1)
		}
		for _, strict := range []bool{true, false} {
			for _, cmp := range []ArgComparison{ArgExact, ArgLevenshtein} {
				unit("accuracy", ToolCallAccuracy(pred, ref, strict, cmp, Decode))
				if a := ToolCallAccuracy(pred, pred, strict, cmp, Decode); a != 1 {
					t.Fatalf("accuracy of calls with themselves = %v", a)
				}
			}
		}
		rep := Repeated(pred, Decode)
		want := 0
		for i := range pred {
			for j := range i {
				if pred[i].Name == pred[j].Name && exactArgsKey(pred[i].Arguments) == exactArgsKey(pred[j].Arguments) {
					want++
					break
				}
			}
		}
		if rep != want {
			t.Fatalf("Repeated = %d, pairwise count %d", rep, want)
		}
	})
}
