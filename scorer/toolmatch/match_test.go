package toolmatch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMatchEdges(t *testing.T) {
	k := func(names ...string) []Call {
		calls := make([]Call, len(names))
		for i, n := range names {
			calls[i] = Call{Name: n}
		}
		return calls
	}
	tests := []struct {
		pred, ref             []Call
		exact, inOrder, anyOr bool
		precision, recall     float64
	}{
		{k(), k(), true, true, true, 1, 1},
		{k("a"), k(), false, true, true, 0, 1},
		{k(), k("a"), false, false, false, 0, 0},
		{k("a", "a"), k("a"), false, true, true, 0.5, 1},
		{k("b", "a", "b"), k("a", "b"), false, true, true, 2.0 / 3, 1},
		{k("b", "a"), k("a", "b"), false, false, true, 1, 1},
		{k("a"), k("a", "a"), false, false, false, 1, 0.5},
		{k("a", "b"), k("a", "b"), true, true, true, 1, 1},
		{k("a", "b", "c"), k("a", "c"), false, true, true, 2.0 / 3, 1},
		{k("c", "a"), k("a", "c"), false, false, true, 1, 1},
		{k("a", "x", "y"), k("a", "b"), false, false, false, 1.0 / 3, 0.5},
	}
	for _, tt := range tests {
		name := fmt.Sprint(tt.pred, tt.ref)
		for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
			c := Compare(tt.pred, tt.ref, keyBy(eq))
			if got := c.ExactMatch(); got != tt.exact {
				t.Errorf("%s exact = %v", name, got)
			}
			if got := c.InOrderMatch(); got != tt.inOrder {
				t.Errorf("%s in order = %v", name, got)
			}
			if got := c.AnyOrderMatch(); got != tt.anyOr {
				t.Errorf("%s any order = %v", name, got)
			}
			if got := c.Precision(); got != tt.precision {
				t.Errorf("%s precision = %v", name, got)
			}
			if got := c.Recall(); got != tt.recall {
				t.Errorf("%s recall = %v", name, got)
			}
		}
	}
}

// TestMatchArguments checks that calls are compared by their arguments
// under each equality, whether the texts are identical or not.
func TestMatchArguments(t *testing.T) {
	tests := []struct {
		pred, ref string
		eq        Equality
		equal     bool
	}{
		{`{"a":1}`, `{"a":1}`, JSONEqual, true},
		{`{"a":1}`, `{"a":1.0}`, JSONEqual, true},
		{`{"a":1}`, `{"a":2}`, JSONEqual, false},
		{`{"a":1}`, `{"a":2}`, NameOnly, true},
		{`{"a":true}`, `{"a":1}`, JSONEqual, false},
		{`{"a":true}`, `{"a":1}`, PythonEqual, true},
		{``, `{}`, JSONEqual, true},
		{``, `{}`, PythonEqual, false},
		{`{x}`, `{x}`, PythonEqual, true},
		{`{x}`, `{ x}`, PythonEqual, false},
	}
	for _, tt := range tests {
		p, r := []Call{{Name: "f", Arguments: tt.pred}}, []Call{{Name: "f", Arguments: tt.ref}}
		if got := Compare(p, r, keyBy(tt.eq)).ExactMatch(); got != tt.equal {
			t.Errorf("%q vs %q under %d: %v, want %v", tt.pred, tt.ref, tt.eq, got, tt.equal)
		}
		if got := Compare([]Call{{Name: "g", Arguments: tt.pred}}, r, keyBy(tt.eq)).ExactMatch(); got {
			t.Errorf("%q vs %q under %d: other names match", tt.pred, tt.ref, tt.eq)
		}
	}
}

// randomCalls draws n calls over a small alphabet, so that equal calls
// (also with re-ordered keys and 1 vs 1.0) are frequent.
func randomCalls(r *rand.Rand, n int) []Call {
	names := []string{"search", "book", "cancel"}
	args := []string{`{}`, `{"q":"x"}`, `{"q":"x","n":1}`, `{"n":1.0,"q":"x"}`, `{"q":"y"}`, ``}
	out := make([]Call, n)
	for i := range out {
		out[i] = Call{Name: names[r.IntN(len(names))], Arguments: args[r.IntN(len(args))]}
	}
	return out
}

// TestMatchProperties checks, on random trajectories, that exact implies
// in-order implies any-order, that precision and recall lie in [0, 1],
// that recall is 1 exactly when any-order holds, and that any-order,
// precision and recall do not depend on the predicted order.
func TestMatchProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
		for i := 0; i < 3000; i++ {
			ref := randomCalls(r, r.IntN(5))
			var pred []Call
			switch r.IntN(3) {
			case 0:
				pred = randomCalls(r, r.IntN(7))
			case 1: // a superset of ref, shuffled
				pred = append(slices.Clone(ref), randomCalls(r, r.IntN(3))...)
				r.Shuffle(len(pred), func(a, b int) { pred[a], pred[b] = pred[b], pred[a] })
			default: // ref itself
				pred = slices.Clone(ref)
			}
			c := Compare(pred, ref, keyBy(eq))
			ex, io, ao := c.ExactMatch(), c.InOrderMatch(), c.AnyOrderMatch()
			if ex && !io || io && !ao {
				t.Fatalf("exact %v in-order %v any-order %v for %v / %v", ex, io, ao, pred, ref)
			}
			p, rc := c.Precision(), c.Recall()
			if p < 0 || p > 1 || rc < 0 || rc > 1 {
				t.Fatalf("precision %v recall %v out of range", p, rc)
			}
			if (rc == 1) != ao {
				t.Fatalf("recall %v but any-order %v", rc, ao)
			}
			perm := slices.Clone(pred)
			r.Shuffle(len(perm), func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
			q := Compare(perm, ref, keyBy(eq))
			if q.AnyOrderMatch() != ao || q.Precision() != p || q.Recall() != rc {
				t.Fatalf("permutation changed the result: %v vs %v / %v", pred, perm, ref)
			}
			f1, fp, fr := ToolCallF1(pred, ref, keyBy(PythonEqual))
			if f1 < 0 || f1 > 1 || fp < 0 || fp > 1 || fr < 0 || fr > 1 {
				t.Fatalf("F1 out of range: %v %v %v", f1, fp, fr)
			}
			for _, strict := range []bool{true, false} {
				if a := ToolCallAccuracy(pred, ref, strict, ArgExact, Decode); a < 0 || a > 1 {
					t.Fatalf("accuracy %v out of range", a)
				}
			}
			if a := ToolCallAccuracy(perm, ref, false, ArgExact, Decode); a != ToolCallAccuracy(pred, ref, false, ArgExact, Decode) {
				t.Fatalf("unordered accuracy depends on order: %v / %v", pred, perm)
			}
		}
	}
}

func TestADKMatchTypes(t *testing.T) {
	for _, s := range []string{"exact", "EXACT", " Exact "} {
		if m, err := ParseMatchType(s); err != nil || m != MatchExact {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	for _, s := range []string{"in-order", "IN ORDER", "in_order"} {
		if m, err := ParseMatchType(s); err != nil || m != MatchInOrder {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	if m, err := ParseMatchType("any order"); err != nil || m != MatchAnyOrder {
		t.Errorf("any order: %v %v", m, err)
	}
	if _, err := ParseMatchType("fuzzy"); err == nil {
		t.Error("unknown match type accepted")
	}
	a := []Call{{Name: "f", Arguments: `{"on":true}`}}
	e := []Call{{Name: "f", Arguments: `{"on":1}`}}
	if !TrajectoryMatches(a, e, MatchExact, keyBy(PythonEqual)) {
		t.Error("Python True == 1 not honoured")
	}
	if TrajectoryMatches([]Call{{Name: "f"}}, []Call{{Name: "f", Arguments: "{}"}}, MatchExact, keyBy(PythonEqual)) {
		t.Error("missing args matched {}")
	}
}

func TestRagasAccuracyDetails(t *testing.T) {
	c := func(name, args string) Call { return Call{Name: name, Arguments: args} }
	tests := []struct {
		name      string
		pred, ref []Call
		strict    bool
		cmp       ArgComparison
		want      float64
	}{
		{"unordered sorts", []Call{c("b", `{"x":1}`), c("a", `{}`)}, []Call{c("a", `{}`), c("b", `{"x":1}`)}, false, ArgExact, 1},
		{"bool vs string True", []Call{c("f", `{"x":true}`)}, []Call{c("f", `{"x":"True"}`)}, true, ArgExact, 1},
		{"nested key order matters", []Call{c("f", `{"d":{"a":1,"b":2}}`)}, []Call{c("f", `{"d":{"b":2,"a":1}}`)}, true, ArgExact, 0},
		{"missing ref key", []Call{c("f", `{"a":1}`)}, []Call{c("f", `{"a":1,"b":2}`)}, true, ArgExact, 0.5},
		{"ref args empty, pred not", []Call{c("f", `{"a":1}`)}, []Call{c("f", `{}`)}, true, ArgExact, 0},
		{"levenshtein", []Call{c("f", `{"q":"kitten"}`)}, []Call{c("f", `{"q":"sitting"}`)}, true, ArgLevenshtein, 1 - 3.0/7},
		{"same names unordered, args differ", []Call{c("a", `{"x":2}`), c("a", `{"x":1}`)}, []Call{c("a", `{"x":1}`), c("a", `{"x":3}`)}, false, ArgExact, 0.5},
	}
	for _, tt := range tests {
		if got := ToolCallAccuracy(tt.pred, tt.ref, tt.strict, tt.cmp, Decode); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	f1, _, _ := ToolCallF1([]Call{c("f", `{"a":1}`), c("f", `{"a":1.0}`)}, []Call{c("f", `{"a":true}`)}, keyBy(PythonEqual))
	if f1 != 1 {
		t.Errorf("F1 set collapse with 1 == 1.0 == True: %v", f1)
	}
	f1, _, _ = ToolCallF1([]Call{c("f", ``)}, []Call{c("f", `{}`)}, keyBy(PythonEqual))
	if f1 != 1 {
		t.Errorf("F1 empty args as {}: %v", f1)
	}
}
