package toolmatch

import "testing"

// benchPreparedRun measures the per-run work of the trajectory metrics:
// preparing the predicted calls, building their keys (exact gives one
// call's exact-argument key), and every prepared metric function against
// a reference prepared once, with its keys built, before the loop.
func benchPreparedRun(b *testing.B, exact func(p *Prepared, i int) string) {
	pred, ref := benchCalls()
	rp := prepareWithKeys(ref, exact)
	b.ReportAllocs()
	for b.Loop() {
		pp := prepareWithKeys(pred, exact)
		pk, rk := pp.Keys(JSONEqual), rp.Keys(JSONEqual)
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
		prepareWithKeys(pred, exact)
	}
}

// prepareWithKeys prepares calls and builds their JSONEqual,
// PythonEqual, F1 and exact-argument keys.
func prepareWithKeys(calls []Call, exact func(p *Prepared, i int) string) *Prepared {
	p := Prepare(calls)
	p.Keys(JSONEqual)
	p.Keys(PythonEqual)
	p.f1Keys()
	for i := range calls {
		exact(p, i)
	}
	return p
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
