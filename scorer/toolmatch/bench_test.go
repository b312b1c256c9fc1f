package toolmatch

import (
	"fmt"
	"testing"
)

// benchCalls returns a realistic 10-call trajectory and a reference that
// differs in one call's argument and order.
func benchCalls() (pred, ref []Call) {
	for i := 0; i < 10; i++ {
		pred = append(pred, Call{
			Name:      fmt.Sprintf("tool_%d", i%4),
			Arguments: fmt.Sprintf(`{"query": "weather in city %d", "limit": %d, "units": "metric", "filters": {"days": 3, "hourly": true}}`, i, i+1),
		})
	}
	ref = append([]Call(nil), pred...)
	ref[3].Arguments = `{"query": "weather in city 3", "limit": 4.0, "units": "imperial", "filters": {"hourly": true, "days": 3}}`
	ref[5], ref[6] = ref[6], ref[5]
	return pred, ref
}

func BenchmarkArgsKey(b *testing.B) {
	pred, _ := benchCalls()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range pred {
			_ = argsKey(c.Arguments, JSONEqual)
		}
	}
}

func BenchmarkVertexTrajectory(b *testing.B) {
	pred, ref := benchCalls()
	for _, tc := range []struct {
		name string
		fn   func(c *Comparison) float64
	}{
		{"exact_match", func(c *Comparison) float64 { return boolScore(c.ExactMatch()) }},
		{"in_order_match", func(c *Comparison) float64 { return boolScore(c.InOrderMatch()) }},
		{"any_order_match", func(c *Comparison) float64 { return boolScore(c.AnyOrderMatch()) }},
		{"precision", (*Comparison).Precision},
		{"recall", (*Comparison).Recall},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = tc.fn(Compare(pred, ref, keyBy(JSONEqual)))
			}
		})
	}
	b.Run("single_tool_use", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = UsesTool(pred, "tool_3")
		}
	})
}

func BenchmarkADKTrajectory(b *testing.B) {
	pred, ref := benchCalls()
	for _, m := range []MatchType{MatchExact, MatchInOrder, MatchAnyOrder} {
		b.Run(m.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = TrajectoryMatches(pred, ref, m, keyBy(PythonEqual))
			}
		})
	}
}

func BenchmarkRagas(b *testing.B) {
	pred, ref := benchCalls()
	b.Run("accuracy_strict", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = ToolCallAccuracy(pred, ref, true, ArgExact, Decode)
		}
	})
	b.Run("accuracy_unordered", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = ToolCallAccuracy(pred, ref, false, ArgExact, Decode)
		}
	})
	b.Run("f1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _, _ = ToolCallF1(pred, ref, keyBy(PythonEqual))
		}
	})
}

func BenchmarkRepeated(b *testing.B) {
	pred, _ := benchCalls()
	b.ReportAllocs()
	for b.Loop() {
		_ = Repeated(pred, Decode)
	}
}

func BenchmarkToolCallOutput(b *testing.B) {
	pred, ref := benchCalls()
	enc := func(cs []Call) string {
		s := `{"content": "", "tool_calls": [`
		for i, c := range cs {
			if i > 0 {
				s += ", "
			}
			s += fmt.Sprintf(`{"name": %q, "arguments": %s}`, c.Name, c.Arguments)
		}
		return s + "]}"
	}
	ps, rs := enc(pred), enc(ref)
	b.ReportAllocs()
	for b.Loop() {
		p, _ := ParseToolCallOutput(ps)
		r, _ := ParseToolCallOutput(rs)
		_ = PairScores(p.Calls, r.Calls, func(p, r []Member) float64 { return KVMatch(p, r, false) })
	}
}

func BenchmarkExactArgsKey(b *testing.B) {
	pred, _ := benchCalls()
	args := pred[0].Arguments
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		_ = exactArgsKey(args)
	}
}
