package toolmatch

import (
	"slices"
	"strings"
	"testing"
)

// checkPrepared fails unless every Prepared result equals the result of
// the function that parses the calls itself.
func checkPrepared(t *testing.T, calls []Call) {
	t.Helper()
	p := Prepare(calls)
	for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
		if got, want := p.Keys(eq), Keys(calls, eq); !slices.Equal(got, want) {
			t.Fatalf("Keys(%d) = %q, want %q", eq, got, want)
		}
	}
	for i := range calls {
		gm, gok := p.Object(i)
		wm, wok := ArgsObject(calls[i].Args)
		if gok != wok || len(gm) != len(wm) {
			t.Fatalf("Object(%d) = %v %v, want %v %v", i, gm, gok, wm, wok)
		}
	}
	f1 := p.f1Keys()
	for i := range calls {
		c := calls[i]
		if strings.TrimSpace(c.Args) == "" {
			c.Args = "{}"
		}
		if want := Key(c, PythonEqual); f1[i] != want {
			t.Fatalf("f1 key %d = %q, want %q", i, f1[i], want)
		}
	}
	rev := slices.Clone(calls)
	slices.Reverse(rev)
	q := Prepare(rev)
	for i := range calls {
		for j := range rev {
			if got, want := KeyMatchMembers(objectOf(p, i), objectOf(q, j)), KeyMatch(&calls[i], &rev[j]); got != want {
				t.Fatalf("KeyMatchMembers(%d, %d) = %v, want %v", i, j, got, want)
			}
			for _, strict := range []bool{false, true} {
				if got, want := KVMatchMembers(objectOf(p, i), objectOf(q, j), strict), KVMatch(&calls[i], &rev[j], strict); got != want {
					t.Fatalf("KVMatchMembers(%d, %d, %v) = %v, want %v", i, j, strict, got, want)
				}
			}
		}
	}
}

func objectOf(p *Prepared, i int) []Member {
	m, _ := p.Object(i)
	return m
}

// TestPrepared checks that prepared calls give the keys, argument objects
// and pair scores of the unprepared functions.
func TestPrepared(t *testing.T) {
	for _, tc := range []struct {
		name  string
		calls []Call
	}{
		{"empty list", nil},
		{"typical", []Call{
			{Name: "search", Args: `{"q": "x", "n": 1, "opts": {"b": true, "a": [1.0, null]}}`},
			{Name: "search", Args: ` {"n": 1.0, "q": "x"} `},
		}},
		{"empty and null arguments", []Call{{Name: "a", Args: ""}, {Name: "a", Args: " \n"}, {Name: "a", Args: "null"}, {Name: "a", Args: "{}"}}},
		{"not JSON and not objects", []Call{{Name: "a", Args: "{oops"}, {Name: "b", Args: "[1, 2]"}, {Name: "c", Args: `"s"`}}},
		{"booleans and numbers", []Call{{Name: "a", Args: `{"x": true}`}, {Name: "a", Args: `{"x": 1}`}, {Name: "a", Args: `{"x": 1e0}`}}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkPrepared(t, tc.calls) })
	}
}

// TestPrepareOutputMatchesPrepare checks that reusing an output's parsed
// arguments gives what parsing the calls' argument texts gives.
func TestPrepareOutputMatchesPrepare(t *testing.T) {
	for _, doc := range []string{
		`{"tool_calls": []}`,
		`{"content": "", "tool_calls": [{"name": "a", "arguments": {"q": "x\"y\u00e9", "n": 1.0, "d": {"b": [1, null], "a": true}}}]}`,
		`{"tool_calls": [{"name": "a", "arguments": {"k": 1, "k": 2, "j": 3}}, {"name": "b", "arguments": " {\"z\": 1} "}]}`,
		`{"tool_calls": [{"name": "a", "arguments": "not json"}, {"name": "b", "arguments": [1]}, {"name": "c"}, {"name": "d", "arguments": null}, 7]}`,
	} {
		o, err := ParseToolCallOutput(doc)
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		calls := make([]Call, len(o.Calls))
		for i := range o.Calls {
			calls[i] = o.Calls[i].Call
		}
		got, want := PrepareOutput(&o), Prepare(calls)
		for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
			if g, w := got.Keys(eq), want.Keys(eq); !slices.Equal(g, w) {
				t.Fatalf("%s: Keys(%d) = %q, want %q", doc, eq, g, w)
			}
		}
		if g, w := got.f1Keys(), want.f1Keys(); !slices.Equal(g, w) {
			t.Fatalf("%s: f1 keys = %q, want %q", doc, g, w)
		}
		for i := range calls {
			gm, gok := got.Object(i)
			wm, wok := want.Object(i)
			if gok != wok || !slices.EqualFunc(gm, wm, func(a, b Member) bool { return a.Key == b.Key }) {
				t.Fatalf("%s: Object(%d) = %v %v, want %v %v", doc, i, gm, gok, wm, wok)
			}
		}
	}
}
