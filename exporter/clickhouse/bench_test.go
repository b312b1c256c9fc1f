package clickhouse

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// benchEvaluation is a run with ten scores and no tool calls: eleven
// evaluations-and-trajectory rows plus ten ledger rows.
func benchEvaluation(i int) *scorer.Evaluation {
	start := baseTime.Add(time.Duration(i) * time.Millisecond)
	e := &scorer.Evaluation{Trajectory: &agentrun.Trajectory{
		TraceID: fmt.Sprintf("%032x", i+1), RootSpanID: fmt.Sprintf("%016x", i+1),
		Service: "svc", ServiceVersion: "1.0", Agent: []string{"a", "b", "c"}[i%3],
		Start: start, End: start.Add(time.Second), Input: "question", Output: "answer",
	}}
	for m := range 10 {
		e.Results = append(e.Results, scorer.Result{
			Metric: []string{"tool_error_rate", "latency", "hallucination_v1", "trajectory_precision", "bleu",
				"rouge_l_sum", "exact_match", "tool_call_count", "repeated_tool_call_rate", "failure"}[m],
			Score: float64(i%100) / 100, Label: "ok", Details: map[string]any{"n": m},
		})
	}
	return e
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkInsert measures score rows per second into the local server
// with the default flush policy (10,000 rows or 1 s), from the first
// Export until ClickHouse has every row, and the client's CPU per row
// (this process only; the server runs in its own).
func BenchmarkInsert(b *testing.B) {
	for _, mode := range []string{"disk_spool_fsync", "memory_spool"} {
		b.Run(mode, func(b *testing.B) {
			s := newTestServer(b)
			cfg := s.config(b)
			cfg.FlushInterval = DefaultConfig().FlushInterval
			cfg.BatchRows = DefaultConfig().BatchRows
			cfg.Spool.Fsync = true
			if mode == "memory_spool" {
				cfg.Spool.Directory = ""
			}
			h := startExporter(b, cfg)
			// Create the schema outside the measurement.
			_ = h.x.Export(context.Background(), benchEvaluation(0))
			_ = h.x.Flush(context.Background())
			waitFor(b, time.Minute, "schema", func() bool { return h.x.queueRows() == 0 })
			base := h.rows("evaluations", exporter.OutcomeSent)
			const runs = 20000 // 200,000 score rows per iteration
			evs := make([]*scorer.Evaluation, runs)
			for i := range evs {
				evs[i] = benchEvaluation(i)
			}
			b.ResetTimer()
			cpu0, t0 := cpuTime(), time.Now()
			for n := 0; n < b.N; n++ {
				for i := range runs {
					for h.x.Export(context.Background(), evs[i]) == ErrQueueFull {
						time.Sleep(time.Millisecond) // the benchmark's producer waits; the sidecar would drop
					}
				}
			}
			if err := h.x.Flush(context.Background()); err != nil {
				b.Fatal(err)
			}
			waitFor(b, 5*time.Minute, "inserts", func() bool { return h.x.queueRows() == 0 })
			wall, cpu := time.Since(t0), cpuTime()-cpu0
			b.StopTimer()
			scores := h.rows("evaluations", exporter.OutcomeSent) - base
			all := 0
			for tb := range numTables {
				all += h.rows(tb.String(), exporter.OutcomeSent)
			}
			if scores != b.N*runs*10 {
				b.Fatalf("%d score rows inserted, want %d", scores, b.N*runs*10)
			}
			b.ReportMetric(float64(scores)/wall.Seconds(), "score_rows/s")
			b.ReportMetric(float64(all)/wall.Seconds(), "rows/s")
			b.ReportMetric(float64(cpu.Nanoseconds())/1000/float64(all), "client_cpu_µs/row")
		})
	}
}

// BenchmarkSpoolWhileDown measures how fast sealed batches go to the
// on-disk spool (fsync on) while ClickHouse is unreachable.
func BenchmarkSpoolWhileDown(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Enabled = true
	cfg.Endpoint = "clickhouse://127.0.0.1:1" // nothing listens
	cfg.Spool.Directory = b.TempDir()
	cfg.Spool.MaxBytes = 8 << 30
	cfg.RetryOnFailure.InitialInterval, cfg.RetryOnFailure.MaxInterval = time.Second, time.Second
	h := startExporter(b, cfg)
	const runs = 10000
	b.ResetTimer()
	t0 := time.Now()
	for n := 0; n < b.N; n++ {
		for i := range runs {
			for h.x.Export(context.Background(), benchEvaluation(n*runs+i)) == ErrQueueFull {
				time.Sleep(time.Millisecond)
			}
		}
		if err := h.x.Flush(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	wall := time.Since(t0)
	b.StopTimer()
	bytes, rows := h.x.spool.stats()
	b.ReportMetric(float64(rows)/wall.Seconds(), "rows/s")
	b.ReportMetric(float64(bytes)/wall.Seconds()/(1<<20), "MiB/s")
	b.ReportMetric(float64(bytes)/float64(rows), "bytes/row")
}

// BenchmarkBuildAndEncode is the client-side cost per row without a
// server: rows from evaluations, then the spool encoding.
func BenchmarkBuildAndEncode(b *testing.B) {
	evs := make([]*scorer.Evaluation, 1000)
	for i := range evs {
		evs[i] = benchEvaluation(i)
	}
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	rows := 0
	for n := 0; n < b.N; n++ {
		var bs [numTables]*batch
		for tb := range numTables {
			// As in steady state: a new batch has the previous one's size.
			bs[tb] = newBatch(tb, tableDefs[tb].columns, 10*len(evs))
		}
		for _, e := range evs {
			rowBuilder{}.append(&bs, e, baseTime)
		}
		for _, bt := range bs {
			buf = encodeBatch(buf[:0], bt, "t", 1)
			rows += bt.rows
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1000/float64(rows), "µs/row")
}
