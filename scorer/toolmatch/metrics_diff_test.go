package toolmatch

import (
	"math/rand/v2"
	"testing"
)

// diffArgs are argument texts for the metric differential checks: equal
// and nearly equal values, booleans against numbers, blanks, non-objects
// and invalid JSON.
var diffArgs = []string{
	``, ` `, `{}`, `null`, `[1]`, `"s"`, `{oops`, "\v{}",
	`{"q":"x"}`, `{"q":"x","n":1}`, `{"n":1.0,"q":"x"}`, `{"n":1e0,"q":"x"}`, `{"n":true,"q":"x"}`,
	`{"q":"y"}`, `{"q":"x","q":"y"}`, `{"q":"y","n":1}`, `{"d":{"a":1,"b":[true,null]}}`,
	`{"d":{"b":[1,null],"a":1.0}}`, `{"q":"x\u00e9"}`, `{"q":"xé"}`, `{"n":-0}`, `{"n":0.0}`,
	`{"n":12345678901234567890}`, `{"n":12345678901234567891}`, `{"q":"it's"}`, `{"q":"k\n\"v\""}`,
}

// checkMetricsDiff fails unless every prepared metric function gives the
// old result for pred against ref, with the reference prepared once.
func checkMetricsDiff(t *testing.T, pred, ref []Call) {
	t.Helper()
	pp, rp := Prepare(pred), Prepare(ref)
	for _, eq := range []Equality{JSONEqual, PythonEqual, NameOnly} {
		pk, rk := pp.Keys(eq), rp.Keys(eq)
		ok, rok := oldKeys(pred, eq), oldKeys(ref, eq)
		if g, w := ExactMatch(pk, rk), ExactMatch(ok, rok); g != w {
			t.Fatalf("ExactMatch(%d) %v, old %v: %q / %q", eq, g, w, pred, ref)
		}
		if g, w := InOrderMatch(pk, rk), InOrderMatch(ok, rok); g != w {
			t.Fatalf("InOrderMatch(%d) %v, old %v: %q / %q", eq, g, w, pred, ref)
		}
		if g, w := AnyOrderMatch(pk, rk), oldMatched(ok, rok) == len(rok); g != w {
			t.Fatalf("AnyOrderMatch(%d) %v, old %v: %q / %q", eq, g, w, pred, ref)
		}
		if g, w := Matched(pk, rk), oldMatched(ok, rok); g != w {
			t.Fatalf("Matched(%d) %v, old %v: %q / %q", eq, g, w, pred, ref)
		}
		if g, w := Precision(pk, rk), oldPrecision(ok, rok); g != w {
			t.Fatalf("Precision(%d) %v, old %v: %q / %q", eq, g, w, pred, ref)
		}
		if g, w := Recall(pk, rk), oldRecall(ok, rok); g != w {
			t.Fatalf("Recall(%d) %v, old %v: %q / %q", eq, g, w, pred, ref)
		}
	}
	for _, m := range []MatchType{MatchExact, MatchInOrder, MatchAnyOrder} {
		for _, ignore := range []bool{false, true} {
			eq := PythonEqual
			if ignore {
				eq = NameOnly
			}
			ok, rok := oldKeys(pred, eq), oldKeys(ref, eq)
			var want bool
			switch m {
			case MatchExact:
				want = ExactMatch(ok, rok)
			case MatchInOrder:
				want = InOrderMatch(ok, rok)
			default:
				want = oldMatched(ok, rok) == len(rok)
			}
			if g := PreparedTrajectoryMatches(pp, rp, m, ignore); g != want {
				t.Fatalf("PreparedTrajectoryMatches(%v, %v) %v, old %v: %q / %q", m, ignore, g, want, pred, ref)
			}
		}
	}
	for _, strict := range []bool{true, false} {
		for _, cmp := range []ArgComparison{ArgExact, ArgLevenshtein} {
			if g, w := PreparedToolCallAccuracy(pp, rp, strict, cmp), oldToolCallAccuracy(pred, ref, strict, cmp); g != w {
				t.Fatalf("PreparedToolCallAccuracy(%v, %v) %v, old %v: %q / %q", strict, cmp, g, w, pred, ref)
			}
		}
	}
	gf, gp, gr := PreparedToolCallF1(pp, rp)
	wf, wp, wr := oldToolCallF1(pred, ref)
	if gf != wf || gp != wp || gr != wr {
		t.Fatalf("PreparedToolCallF1 %v %v %v, old %v %v %v: %q / %q", gf, gp, gr, wf, wp, wr, pred, ref)
	}
}

// randomDiffCalls draws n calls over few names and diffArgs.
func randomDiffCalls(r *rand.Rand, n int) []Call {
	names := []string{"a", "b", "c"}
	out := make([]Call, n)
	for i := range out {
		out[i] = Call{Name: names[r.IntN(len(names))], Args: diffArgs[r.IntN(len(diffArgs))]}
	}
	return out
}

// TestMetricsDiff compares the metric functions with the old ones on
// random trajectories, short and longer than the stack work space.
func TestMetricsDiff(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		n, m := r.IntN(6), r.IntN(6)
		if i%100 == 0 {
			n, m = 60+r.IntN(20), 60+r.IntN(20)
		}
		pred, ref := randomDiffCalls(r, n), randomDiffCalls(r, m)
		if r.IntN(3) == 0 {
			// a permutation of ref, so that the unordered metrics match
			pred = append([]Call(nil), ref...)
			r.Shuffle(len(pred), func(a, b int) { pred[a], pred[b] = pred[b], pred[a] })
		}
		checkMetricsDiff(t, pred, ref)
	}
}

// FuzzMetricsDiff compares the metric functions with the old ones on
// trajectories whose argument texts come from the fuzzer.
func FuzzMetricsDiff(f *testing.F) {
	f.Add(`{"q":"x","n":1}`, `{"n":1.0,"q":"x"}`, `{"n":true}`, uint8(0x1b))
	f.Add(``, `{}`, `null`, uint8(0x2d))
	f.Add(`{"d":{"a":1}}`, `{"d":{"a":1.0}}`, `[1]`, uint8(0xe4))
	f.Fuzz(func(t *testing.T, a, b, c string, shape uint8) {
		args := []string{a, b, c}
		names := []string{"f", "g"}
		// shape picks, two bits per call, the calls of pred and ref.
		var pred, ref []Call
		for k := 0; k < 4; k++ {
			bits := shape >> (2 * k) & 3
			call := Call{Name: names[k%2], Args: args[int(bits)%3]}
			if k < 2 || bits == 3 {
				pred = append(pred, call)
			}
			if k >= 1 {
				ref = append(ref, Call{Name: names[int(bits)%2], Args: args[(k+int(bits))%3]})
			}
		}
		checkMetricsDiff(t, pred, ref)
	})
}
