package extractor

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"
)

// TestPropertyCapsAndExactlyOnce feeds random streams of spans (random
// order, duplicates, many traces, random request boundaries, release passes
// in between) and checks that the caps always hold and that every trace is
// released at most once, and only not at all when it was evicted before
// its root arrived (outcome incomplete).
func TestPropertyCapsAndExactlyOnce(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, seed*7919))
		cfg := DefaultConfig()
		cfg.MaxLiveTraces = 1 + rng.IntN(12)
		cfg.MaxSpansPerTrace = 2 + rng.IntN(5)
		cfg.MaxTraceAge = time.Hour
		probe := newTestAssembler(t, DefaultConfig())
		_ = probe.ConsumeTraces(context.Background(), buildTraces(agentRun(1)...))
		cfg.MaxBufferedBytes = probe.BufferedBytes() * int64(1+rng.IntN(6))
		ta := newTestAssembler(t, cfg)

		var stream []spanSpec
		traces := 20 + rng.IntN(60)
		for tr := 1; tr <= traces; tr++ {
			for _, s := range agentRun(byte(tr)) {
				stream = append(stream, s)
				if rng.IntN(4) == 0 {
					stream = append(stream, s) // duplicate
				}
			}
		}
		rng.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })

		sent := map[string]bool{}
		for len(stream) > 0 {
			n := min(len(stream), 1+rng.IntN(8))
			req := stream[:n]
			stream = stream[n:]
			ta.now = ta.now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
			err := ta.ConsumeTraces(context.Background(), buildTraces(req...))
			if err == nil {
				for _, s := range req {
					sent[traceID(s.trace).String()] = true
				}
			}
			if ta.LiveTraces() > cfg.MaxLiveTraces {
				t.Fatalf("seed %d: %d live traces, cap %d", seed, ta.LiveTraces(), cfg.MaxLiveTraces)
			}
			if ta.BufferedBytes() > cfg.MaxBufferedBytes {
				t.Fatalf("seed %d: %d bytes buffered, cap %d", seed, ta.BufferedBytes(), cfg.MaxBufferedBytes)
			}
			for _, tr := range ta.traces {
				if len(tr.spans) > cfg.MaxSpansPerTrace {
					t.Fatalf("seed %d: %d spans in a trace, cap %d", seed, len(tr.spans), cfg.MaxSpansPerTrace)
				}
			}
			if rng.IntN(3) == 0 {
				ta.Cut(ta.now, false)
			}
		}
		if err := ta.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		released := map[string]int{}
		for _, tr := range ta.sink.all() {
			released[tr.TraceID]++
		}
		// a trace evicted before its root arrived is not released (it is
		// counted incomplete); the rest of it may start it again
		missing := 0
		for id := range sent {
			switch released[id] {
			case 0:
				missing++
			case 1:
			default:
				t.Fatalf("seed %d: trace %s released %d times", seed, id, released[id])
			}
		}
		if incomplete := int(ta.outcome(OutcomeIncomplete)); missing > incomplete {
			t.Fatalf("seed %d: %d traces never released, %d evicted incomplete", seed, missing, incomplete)
		}
		if len(released) != len(sent)-missing {
			t.Fatalf("seed %d: released %d traces, sent %d", seed, len(released), len(sent))
		}
		var outcomes float64
		for _, o := range []string{OutcomeComplete, OutcomeMaxAge, OutcomeEvicted, OutcomeTooLarge, OutcomeNoGenAI} {
			outcomes += ta.outcome(o)
		}
		if int(outcomes) != len(released) || ta.LiveTraces() != 0 || ta.BufferedBytes() != 0 {
			t.Fatalf("seed %d: %v outcomes for %d traces; %d live, %d bytes left", seed, outcomes, len(released), ta.LiveTraces(), ta.BufferedBytes())
		}
	}
}
