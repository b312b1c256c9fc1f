package trajectory

import "testing"

// benchPreparedRun measures the per-run work of the trajectory metrics:
// preparing the predicted calls, building their keys (exact gives one
// call's exact-argument key), and every prepared metric function against
// a reference prepared once, with its keys built, before the loop.
func benchPreparedRun(b *testing.B, exact func(p *Prepared, i int) string) {
	pred, ref := benchCalls()
	rp := Prepare(ref)
	rp.Keys(JSONEqual)
	rp.Keys(PythonEqual)
	rp.f1Keys()
	for i := range ref {
		exact(rp, i)
	}
	b.ReportAllocs()
	for b.Loop() {
		pp := Prepare(pred)
		pk, rk := pp.Keys(JSONEqual), rp.Keys(JSONEqual)
		pp.Keys(PythonEqual)
		pp.f1Keys()
		for i := range pred {
			exact(pp, i)
		}
		_ = ExactMatch(pk, rk)
		_ = InOrderMatch(pk, rk)
		_ = AnyOrderMatch(pk, rk)
		_ = Precision(pk, rk)
		_ = Recall(pk, rk)
		_ = Matched(pk, rk)
		for _, m := range []MatchType{MatchExact, MatchInOrder, MatchAnyOrder} {
			_ = PreparedTrajectoryMatches(pp, rp, m, false)
		}
		_ = PreparedToolCallAccuracy(pp, rp, true, ArgExact)
		_ = PreparedToolCallAccuracy(pp, rp, false, ArgExact)
		_, _, _ = PreparedToolCallF1(pp, rp)
	}
}

// BenchmarkPreparedRunBaseline is BenchmarkPreparedRun with the exact
// keys built from the argument texts by ExactArgsKey.
func BenchmarkPreparedRunBaseline(b *testing.B) {
	benchPreparedRun(b, func(p *Prepared, i int) string { return ExactArgsKey(p.Calls[i].Args) })
}

// benchPrepareKeys measures preparing the predicted calls and building
// their JSONEqual, PythonEqual, F1 and exact-argument keys.
func benchPrepareKeys(b *testing.B, exact func(p *Prepared, i int) string) {
	pred, _ := benchCalls()
	b.ReportAllocs()
	for b.Loop() {
		pp := Prepare(pred)
		pp.Keys(JSONEqual)
		pp.Keys(PythonEqual)
		pp.f1Keys()
		for i := range pred {
			exact(pp, i)
		}
	}
}

// BenchmarkPrepareKeysBaseline is BenchmarkPrepareKeys with the exact
// keys built from the argument texts by ExactArgsKey.
func BenchmarkPrepareKeysBaseline(b *testing.B) {
	benchPrepareKeys(b, func(p *Prepared, i int) string { return ExactArgsKey(p.Calls[i].Args) })
}

// BenchmarkPreparedRun is the per-run work of the trajectory metrics
// against a shared prepared reference, with exact keys from
// Prepared.ExactArgsKey.
func BenchmarkPreparedRun(b *testing.B) {
	benchPreparedRun(b, (*Prepared).ExactArgsKey)
}

// BenchmarkPrepareKeys is preparing the predicted calls and building
// all their keys, exact keys from Prepared.ExactArgsKey.
func BenchmarkPrepareKeys(b *testing.B) {
	benchPrepareKeys(b, (*Prepared).ExactArgsKey)
}

// BenchmarkPrepare is preparing the predicted calls of the benchmark
// case: parsing their arguments.
func BenchmarkPrepare(b *testing.B) {
	pred, _ := benchCalls()
	b.ReportAllocs()
	for b.Loop() {
		Prepare(pred)
	}
}
