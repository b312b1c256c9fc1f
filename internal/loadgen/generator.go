package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Config is what to replay and how.
type Config struct {
	Protocol string // "grpc" (endpoints host:port) or "http" (base URLs or host:port)
	// Endpoints receive the requests in turn, as a plain load balancer
	// spreads them; one endpoint is the usual case.
	Endpoints []string
	Captures  []Capture
	// Runs is how many runs to start; with Duration, whichever comes first
	// ends the starting. At least one of the two must be set.
	Runs     int
	Duration time.Duration
	// Rate is runs per second; 0 sends as fast as the endpoint answers.
	Rate float64
	// InFlight is how many runs are interleaved at once (default 1000):
	// each request takes its spans from runs picked at random among them.
	InFlight int
	// SpansPerRequest is the spans of one request (default 8).
	SpansPerRequest int
	// Senders is how many requests are in flight at once (default 4).
	Senders int
	Seed    uint64
}

// SentRun is one replayed run and what became of it.
type SentRun struct {
	Capture  string
	TraceIDs []pcommon.TraceID
	// Acked is set when every request carrying its spans was accepted.
	Acked bool
	// Complete is set when every one of its spans was sent.
	Complete bool
}

// Report is the outcome of a replay.
type Report struct {
	Runs     []SentRun
	Requests int // requests sent
	Failed   int // requests the endpoint refused or that failed
	Spans    int // spans sent
	Elapsed  time.Duration
	// Errors holds up to ten distinct request errors.
	Errors []string
}

// Acked returns the runs the endpoint accepted in full.
func (r *Report) Acked() []SentRun {
	var out []SentRun
	for _, s := range r.Runs {
		if s.Acked && s.Complete {
			out = append(out, s)
		}
	}
	return out
}

// request is one export and the runs its spans belong to.
type request struct {
	td   ptrace.Traces
	runs []int
	to   sender
}

// Replay sends runs until cfg.Runs are started or cfg.Duration passes, then
// finishes the runs in flight, and reports. Cancelling ctx stops at once:
// runs not fully sent are reported incomplete.
func Replay(ctx context.Context, cfg Config) (*Report, error) {
	if len(cfg.Captures) == 0 {
		return nil, errors.New("loadgen: no captures")
	}
	if cfg.Runs <= 0 && cfg.Duration <= 0 {
		return nil, errors.New("loadgen: set Runs or Duration")
	}
	cfg.InFlight = cmpOr(cfg.InFlight, 1000)
	cfg.SpansPerRequest = cmpOr(cfg.SpansPerRequest, 8)
	cfg.Senders = cmpOr(cfg.Senders, 4)
	if len(cfg.Endpoints) == 0 {
		return nil, errors.New("loadgen: no endpoint")
	}
	snds := make([]sender, len(cfg.Endpoints))
	for i, ep := range cfg.Endpoints {
		s, err := newSender(cfg.Protocol, ep)
		if err != nil {
			return nil, err
		}
		defer s.close() //nolint:errcheck // nothing left to report
		snds[i] = s
	}

	rep := &Report{}
	var mu sync.Mutex // guards rep
	reqs := make(chan request, cfg.Senders)
	var wg sync.WaitGroup
	for range cfg.Senders {
		wg.Go(func() {
			for r := range reqs {
				err := r.to.send(ctx, r.td)
				mu.Lock()
				rep.Requests++
				if err != nil {
					rep.Failed++
					if len(rep.Errors) < 10 {
						rep.Errors = append(rep.Errors, err.Error())
					}
					for _, i := range r.runs {
						rep.Runs[i].Acked = false
					}
				}
				mu.Unlock()
			}
		})
	}

	start := time.Now()
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	avg := 0
	for _, c := range cfg.Captures {
		avg += c.Count
	}
	avg = max(avg/len(cfg.Captures), 1)
	// interval paces requests so that runs finish at cfg.Rate a second
	var interval time.Duration
	if cfg.Rate > 0 {
		interval = time.Duration(float64(time.Second) * float64(cfg.SpansPerRequest) / (cfg.Rate * float64(avg)))
	}
	type live struct {
		idx  int
		run  *Run
		next int
	}
	var pool []*live
	started, sent := 0, 0
	canStart := func() bool {
		return (cfg.Runs <= 0 || started < cfg.Runs) && (cfg.Duration <= 0 || time.Since(start) < cfg.Duration)
	}
	next := time.Now()
	for ctx.Err() == nil {
		for len(pool) < cfg.InFlight && canStart() {
			r := newRun(&cfg.Captures[rng.IntN(len(cfg.Captures))], rng, time.Now())
			mu.Lock()
			rep.Runs = append(rep.Runs, SentRun{Capture: r.Capture, TraceIDs: r.TraceIDs, Acked: true})
			idx := len(rep.Runs) - 1
			mu.Unlock()
			pool = append(pool, &live{idx: idx, run: r})
			started++
		}
		if len(pool) == 0 {
			break
		}
		req := request{td: ptrace.NewTraces(), to: snds[sent%len(snds)]}
		sent++
		for n := 0; n < cfg.SpansPerRequest && len(pool) > 0; n++ {
			k := rng.IntN(len(pool))
			l := pool[k]
			l.run.pieces[l.next].ResourceSpans().MoveAndAppendTo(req.td.ResourceSpans())
			l.run.pieces[l.next] = ptrace.Traces{}
			l.next++
			if len(req.runs) == 0 || req.runs[len(req.runs)-1] != l.idx {
				req.runs = append(req.runs, l.idx)
			}
			if l.next == len(l.run.pieces) {
				mu.Lock()
				rep.Runs[l.idx].Complete = true
				mu.Unlock()
				pool[k] = pool[len(pool)-1]
				pool = pool[:len(pool)-1]
			}
		}
		if interval > 0 {
			next = next.Add(interval)
			if d := time.Until(next); d > 0 {
				select {
				case <-time.After(d):
				case <-ctx.Done():
				}
			}
		}
		rep.Spans += req.td.SpanCount()
		select {
		case reqs <- req:
		case <-ctx.Done():
		}
	}
	close(reqs)
	wg.Wait()
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func cmpOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// MarshalJSON writes the run with its trace ids in hex, as every OTLP tool
// shows them.
func (r SentRun) MarshalJSON() ([]byte, error) {
	ids := make([]string, len(r.TraceIDs))
	for i, id := range r.TraceIDs {
		ids[i] = id.String()
	}
	return json.Marshal(struct {
		Capture  string   `json:"capture"`
		TraceIDs []string `json:"trace_ids"`
		Acked    bool     `json:"acknowledged"`
		Complete bool     `json:"complete"`
	}{r.Capture, ids, r.Acked, r.Complete})
}
