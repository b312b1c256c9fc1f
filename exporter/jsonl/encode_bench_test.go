package jsonl

import (
	"testing"
)

// BenchmarkJSONLEncode measures encoding one medium evaluation (4 tool
// calls, 3 LLM calls, 6 scores) into JSON lines: the work Export does on
// the caller's goroutine.
func BenchmarkJSONLEncode(b *testing.B) {
	ev := &loadEvaluations(b)[0]
	if len(ev.Trajectory.ToolCalls) != 4 || len(ev.Trajectory.LLMCalls) != 3 || len(ev.Results) != 6 {
		b.Fatal("fixture is not the medium evaluation")
	}
	var pool batchPool
	var bytes int
	b.ReportAllocs()
	for b.Loop() {
		bt := pool.get()
		encode(bt, ev, scoredAt)
		if bt.records() != 7 || bt.failed != 0 {
			b.Fatalf("encoded %d records, %d failed", bt.records(), bt.failed)
		}
		bytes = bt.buf.Len()
		pool.put(bt)
	}
	b.SetBytes(int64(bytes))
}
