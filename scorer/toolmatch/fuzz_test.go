package toolmatch

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParseToolCallOutput checks that any text decodes or fails cleanly,
// that Parse accepts exactly what encoding/json accepts and, through Any,
// decodes to what it decodes with UseNumber, and that a valid output's
// calls carry object arguments that decode again.
func FuzzParseToolCallOutput(f *testing.F) {
	f.Add(`{"content": "", "tool_calls": [{"name": "f", "arguments": {"a": 1}}]}`)
	f.Add(`{"tool_calls": [{"name": "f", "arguments": "{\"a\": 1.0}"}]}`)
	f.Add(`{"tool_calls": [{"foo": "f"}]}`)
	f.Add(`{"tool_calls": {}}`)
	f.Add(`[1, 2]`)
	f.Add(`{"tool_calls": [{"name": "é", "arguments": {"k": "\u0000\ud83d\ude00"}}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, perr := Parse(s)
		if (perr == nil) != json.Valid([]byte(s)) {
			t.Fatalf("Parse error %v but json.Valid %v", perr, json.Valid([]byte(s)))
		}
		if perr == nil {
			dec := json.NewDecoder(strings.NewReader(s))
			dec.UseNumber()
			var want any
			if err := dec.Decode(&want); err != nil {
				t.Fatalf("encoding/json: %v", err)
			}
			if got := v.Any(); !reflect.DeepEqual(got, want) {
				t.Fatalf("Parse(%q).Any() = %#v, encoding/json gives %#v", s, got, want)
			}
		}
		out, err := ParseToolCallOutput(s)
		if err != nil {
			return
		}
		for _, c := range out.Calls {
			if c.Problem == "" && c.Args != "" {
				if _, ok := ArgsObject(c.Args); !ok {
					t.Fatalf("valid call with non-object args %q", c.Args)
				}
			}
		}
		_ = out.Valid()
		pc := make([]Call, len(out.Calls))
		for i := range out.Calls {
			pc[i] = out.Calls[i].Call
		}
		// the parsed arguments reused by PrepareOutput are those of Args
		for _, eq := range []Equality{JSONEqual, PythonEqual} {
			if got, want := PrepareOutput(&out).Keys(eq), Keys(pc, eq); !slices.Equal(got, want) {
				t.Fatalf("PrepareOutput keys %q, Keys of Args %q", got, want)
			}
		}
		for _, sc := range []float64{
			PairScores(pc, pc, KeyMatch),
			PairScores(pc, pc, func(p, r *Call) float64 { return KVMatch(p, r, false) }),
			PairScores(pc, pc, func(p, r *Call) float64 { return KVMatch(p, r, true) }),
		} {
			if sc != 1 {
				t.Fatalf("output compared with itself scores %v", sc)
			}
		}
	})
}

// FuzzArgsEquality checks that argument keys are reflexive, that key
// equality agrees with encoding/json's semantic equality where the two
// can be compared, and that PyStr never panics.
func FuzzArgsEquality(f *testing.F) {
	f.Add(`{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1.0}`)
	f.Add(`{"a":"x"}`, `{"a":"y"}`)
	f.Add(`{"a":1e400}`, `{"a":2e400}`)
	f.Add(``, `{}`)
	f.Add(`{"a":{"b":1}}`, `{"a":{"b":true}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, eq := range []Equality{JSONEqual, PythonEqual} {
			if ArgsKey(a, eq) != ArgsKey(a, eq) {
				t.Fatal("key not deterministic")
			}
		}
		checkPrepared(t, []Call{{Name: "f", Args: a}, {Name: "g", Args: b}})
		ka, kb := ArgsKey(a, JSONEqual), ArgsKey(b, JSONEqual)
		// JSON equality implies Python equality.
		if ka == kb && ArgsKey(a, PythonEqual) != ArgsKey(b, PythonEqual) && strings.TrimSpace(a) != "" && strings.TrimSpace(b) != "" {
			t.Fatalf("JSON-equal but not Python-equal: %q %q", a, b)
		}
		if v, err := Parse(a); err == nil {
			_ = PyStr(&v)
			// Re-encoding keeps the value.
			if ArgsKey(string(AppendJSON(nil, &v)), JSONEqual) != ArgsKey(a, JSONEqual) {
				t.Fatalf("re-encoding changed %q", a)
			}
		}
		var va, vb any
		if json.Unmarshal([]byte(a), &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && ka == kb {
			ja, _ := json.Marshal(va)
			jb, _ := json.Marshal(vb)
			if string(ja) != string(jb) && !hasNumber(a) {
				t.Fatalf("equal keys for different values: %q %q", a, b)
			}
		}
	})
}

// hasNumber reports whether s may hold a number, whose float64 decoding
// in encoding/json may differ from Python's int/float view.
func hasNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			return true
		}
	}
	return false
}
