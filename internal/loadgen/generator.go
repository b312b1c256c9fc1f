package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
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
	// Latencies are the request round trips, in the order they ended.
	Latencies []time.Duration
	// Errors holds up to ten distinct request errors.
	Errors []string
}

// Latency returns the q quantile (0 < q <= 1) of the request round trips
// by the nearest-rank method, 0 without requests.
func (r *Report) Latency(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	l := slices.Clone(r.Latencies)
	slices.Sort(l)
	rank := int(math.Ceil(q * float64(len(l))))
	return l[min(max(rank, 1), len(l))-1]
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
	switch {
	case len(cfg.Captures) == 0:
		return nil, errors.New("loadgen: no captures")
	case cfg.Runs <= 0 && cfg.Duration <= 0:
		return nil, errors.New("loadgen: set Runs or Duration")
	case len(cfg.Endpoints) == 0:
		return nil, errors.New("loadgen: no endpoint")
	}
	cfg.InFlight = cmpOr(cfg.InFlight, 1000)
	cfg.SpansPerRequest = cmpOr(cfg.SpansPerRequest, 8)
	cfg.Senders = cmpOr(cfg.Senders, 4)
	r := &replay{cfg: cfg, rep: &Report{}, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))}
	for _, ep := range cfg.Endpoints {
		s, err := newSender(cfg.Protocol, ep)
		if err != nil {
			return nil, err
		}
		defer s.close() //nolint:errcheck // nothing left to report
		r.senders = append(r.senders, s)
	}
	reqs := make(chan request, cfg.Senders)
	var wg sync.WaitGroup
	for range cfg.Senders {
		wg.Go(func() {
			for req := range reqs {
				start := time.Now()
				err := req.to.send(ctx, req.td)
				r.record(req, time.Since(start), err)
			}
		})
	}
	r.start = time.Now()
	interval := r.interval()
	next := time.Now()
	for ctx.Err() == nil {
		r.fill()
		if len(r.pool) == 0 {
			break
		}
		req := r.request()
		if interval > 0 {
			next = next.Add(interval)
			select {
			case <-time.After(time.Until(next)):
			case <-ctx.Done():
			}
		}
		r.rep.Spans += req.td.SpanCount()
		select {
		case reqs <- req:
		case <-ctx.Done():
		}
	}
	close(reqs)
	wg.Wait()
	r.rep.Elapsed = time.Since(r.start)
	return r.rep, nil
}

// replay is the state of one Replay.
type replay struct {
	cfg     Config
	senders []sender
	rng     *rand.Rand
	start   time.Time
	pool    []*live // runs in flight
	started int     // runs started
	sent    int     // requests built

	mu  sync.Mutex // guards rep, which the senders update
	rep *Report
}

// live is a run in flight: the next piece to send.
type live struct {
	idx  int // in Report.Runs
	run  *Run
	next int
}

// interval is the time between requests that makes runs finish at
// cfg.Rate a second, 0 without a rate.
func (r *replay) interval() time.Duration {
	if r.cfg.Rate <= 0 {
		return 0
	}
	spans := 0
	for _, c := range r.cfg.Captures {
		spans += c.Count
	}
	perRun := max(spans/len(r.cfg.Captures), 1)
	return time.Duration(float64(time.Second) * float64(r.cfg.SpansPerRequest) / (r.cfg.Rate * float64(perRun)))
}

// fill starts runs until cfg.InFlight are in flight or no more may start.
func (r *replay) fill() {
	for len(r.pool) < r.cfg.InFlight &&
		(r.cfg.Runs <= 0 || r.started < r.cfg.Runs) && (r.cfg.Duration <= 0 || time.Since(r.start) < r.cfg.Duration) {
		run := newRun(&r.cfg.Captures[r.rng.IntN(len(r.cfg.Captures))], r.rng, time.Now())
		r.mu.Lock()
		r.rep.Runs = append(r.rep.Runs, SentRun{Capture: run.Capture, TraceIDs: run.TraceIDs, Acked: true})
		idx := len(r.rep.Runs) - 1
		r.mu.Unlock()
		r.pool = append(r.pool, &live{idx: idx, run: run})
		r.started++
	}
}

// request takes the next piece of runs picked at random from the pool,
// cfg.SpansPerRequest of them, for the next endpoint in turn.
func (r *replay) request() request {
	req := request{td: ptrace.NewTraces(), to: r.senders[r.sent%len(r.senders)]}
	r.sent++
	for n := 0; n < r.cfg.SpansPerRequest && len(r.pool) > 0; n++ {
		k := r.rng.IntN(len(r.pool))
		l := r.pool[k]
		l.run.pieces[l.next].ResourceSpans().MoveAndAppendTo(req.td.ResourceSpans())
		l.next++
		if len(req.runs) == 0 || req.runs[len(req.runs)-1] != l.idx {
			req.runs = append(req.runs, l.idx)
		}
		if l.next == len(l.run.pieces) {
			r.mu.Lock()
			r.rep.Runs[l.idx].Complete = true
			r.mu.Unlock()
			r.pool[k] = r.pool[len(r.pool)-1]
			r.pool = r.pool[:len(r.pool)-1]
		}
	}
	return req
}

// record counts a sent request and its round trip; a failed one leaves its
// runs unacknowledged.
func (r *replay) record(req request, took time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rep.Requests++
	r.rep.Latencies = append(r.rep.Latencies, took)
	if err == nil {
		return
	}
	r.rep.Failed++
	if len(r.rep.Errors) < 10 {
		r.rep.Errors = append(r.rep.Errors, err.Error())
	}
	for _, i := range req.runs {
		r.rep.Runs[i].Acked = false
	}
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
