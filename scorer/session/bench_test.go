package session

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

const benchSessions, benchTurns = 20000, 3

// benchRun is turn i of the benchmark: a run with its own 200-byte
// request, 500-byte answer and two tool calls.
func benchRun(i int) *scorer.Evaluation {
	return &scorer.Evaluation{Trajectory: &agentrun.Trajectory{
		TraceID: fmt.Sprintf("%032x", i), RootSpanID: fmt.Sprintf("%016x", i), SessionID: fmt.Sprintf("conv_%016x", i%benchSessions),
		Service: "svc", Agent: "agent", Start: t0, End: t0.Add(time.Second),
		Input: strings.Repeat("q", 200), Output: strings.Repeat("a", 500), ToolCalls: make([]agentrun.ToolCall, 2)}}
}

func benchAssembler(b *testing.B, opts Options) *Assembler {
	cfg := DefaultConfig()
	cfg.MaxSessions, cfg.MaxBytes = benchSessions, 1<<40
	a, err := New(cfg, telemetry.Settings{}, &collect{}, opts)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkOpenSessions measures the heap open sessions of three turns
// hold once their runs are otherwise released, against the assembler's
// estimate that max_bytes bounds: turns as summaries, and turns keeping
// their dialogue (two 100-byte tool calls with 300-byte results, two model
// replies) for a judge of whole dialogues.
func BenchmarkOpenSessions(b *testing.B) {
	for _, dialogue := range []bool{false, true} {
		name, opts := "summary", Options{}
		if dialogue {
			name, opts = "dialogue", Options{Judge: &dialogueJudge{dialogues: true}}
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				a := benchAssembler(b, opts)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range benchSessions * benchTurns {
					ev := benchRun(i)
					if dialogue {
						withDialogue(ev.Trajectory)
					}
					_ = a.Export(context.Background(), ev)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				n, est := a.stats()
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(n), "heap-B/session")
				b.ReportMetric(float64(est)/float64(n), "estimated-B/session")
				runtime.KeepAlive(a)
			}
		})
	}
}

// withDialogue gives a benchmark run two tool calls with their texts and
// two model calls, the first calling both tools (the last one's text is
// the output, recorded apart on its own span).
func withDialogue(t *agentrun.Trajectory) {
	for i := range t.ToolCalls {
		t.ToolCalls[i] = agentrun.ToolCall{Name: "search", Arguments: strings.Repeat("x", 100), Result: strings.Repeat("r", 300)}
	}
	t.LLMCalls = []agentrun.LLMCall{{Output: strings.Repeat("l", 20)}, {Output: strings.Clone(t.Output)}}
	t.Steps = []agentrun.Step{{Kind: agentrun.StepLLM, Index: 0}, {Kind: agentrun.StepTool, Index: 0},
		{Kind: agentrun.StepTool, Index: 1}, {Kind: agentrun.StepLLM, Index: 1}}
}

// BenchmarkAddTurn measures adding a scored run to its open session.
func BenchmarkAddTurn(b *testing.B) {
	evs := make([]*scorer.Evaluation, benchSessions*benchTurns)
	for i := range evs {
		evs[i] = benchRun(i)
	}
	b.ReportAllocs()
	a := benchAssembler(b, Options{})
	i := 0
	for b.Loop() {
		if i == len(evs) {
			b.StopTimer()
			a, i = benchAssembler(b, Options{}), 0
			b.StartTimer()
		}
		_ = a.Export(context.Background(), evs[i])
		i++
	}
}
