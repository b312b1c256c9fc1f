package extractor

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// refuseRetryAfter is the retry hint given with a refused request.
const refuseRetryAfter = 1 * time.Second

// Assembler buffers spans and GenAI log records by trace id until each trace
// is complete, then extracts its trajectories and submits them to a Sink.
//
// A trace is complete when its root span has arrived (spans are exported
// when they end) and nothing has arrived for it for quiet_period; it is
// released anyway at max_trace_age. Repeated span ids are dropped (OTLP is
// at-least-once). Spans that arrive for a trace released within the last
// max_trace_age are late: they are counted in evalsidecar_late_spans_total
// and dropped with reason "late", since a fragment would be scored as a
// second, partial run.
//
// All methods are safe for concurrent use. The Assembler starts no
// goroutines of its own: Run ticks in the caller's goroutine.
type Assembler struct {
	cfg   Config
	sink  Sink
	log   *slog.Logger
	m     *metrics
	drops *telemetry.Drops
	conv  converter
	clock func() time.Time

	mu     sync.Mutex
	traces map[[16]byte]*Trace
	// frags and runs hold the live traces in arrival order: runs those
	// with a span or log record a convention reads, frags the others.
	// Eviction takes the oldest fragment first.
	frags, runs traceList
	// fragSources counts the fragments by source, for fair eviction.
	fragSources fragments
	bytes       int64
	recent      *recentSet
	// pending are traces evicted on the request path, waiting for the
	// background release (Run, or the next Cut or Flush) to extract them;
	// pendingBytes is their size. wake tells Run there are some.
	pending      []released
	pendingBytes int64
	wake         chan struct{}

	// scratch holds *extraction working state for reuse by release, which
	// may run on several goroutines at once.
	scratch sync.Pool
	// arenas holds the record storage of released traces for intake.
	arenas *arenaPool
}

// released is a trace taken out of the buffer with the reason it was cut.
type released struct {
	t      *Trace
	reason string
}

// NewAssembler returns an Assembler that submits trajectories to sink.
func NewAssembler(cfg Config, set telemetry.Settings, sink Sink) (*Assembler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if sink == nil {
		return nil, errors.New("extractor: nil sink")
	}
	m, err := newMetrics(set.Registerer)
	if err != nil {
		return nil, err
	}
	pool := new(arenaPool)
	return &Assembler{
		cfg:    cfg,
		sink:   sink,
		log:    set.Log(),
		m:      m,
		drops:  set.Drops,
		conv:   converter{maxValue: cfg.MaxAttributeValueBytes, runKeys: newRunKeys(cfg.RunAttributes), pool: pool},
		arenas: pool,
		clock:  time.Now,
		traces: make(map[[16]byte]*Trace),
		wake:   make(chan struct{}, 1),
		recent: newRecentSet(max(cfg.MaxLiveTraces, 1024), cfg.MaxTraceAge),
	}, nil
}

// ConsumeTraces buffers the spans of td. It copies what it needs and keeps
// no reference to td. It returns a *errs.Refused error when the request
// alone is larger than max_buffered_bytes.
func (a *Assembler) ConsumeTraces(ctx context.Context, td ptrace.Traces) error {
	return a.push(ctx, a.clock(), a.conv.traces(td))
}

// ConsumeLogs buffers the GenAI event log records of ld (event name in the
// gen_ai namespace) with their traces; other log records are ignored. It
// keeps no reference to ld.
func (a *Assembler) ConsumeLogs(ctx context.Context, ld plog.Logs) error {
	return a.push(ctx, a.clock(), a.conv.logs(ld))
}

// Run releases complete traces every tick until ctx is done. It returns nil
// when ctx is cancelled; call Flush afterwards to release what is left.
// Run's releases wait for room in the sink (queue.WithWait) rather than
// drop: they are off the request path, and a pass that has taken traces
// out of the buffer finishes handing them on even after ctx is cancelled.
func (a *Assembler) Run(ctx context.Context) error {
	tk := time.NewTicker(a.cfg.Tick)
	defer tk.Stop()
	release := queue.WithWait(context.WithoutCancel(ctx))
	for {
		select {
		case <-ctx.Done():
			return nil
		case now := <-tk.C:
			a.cut(release, now, false)
		case <-a.wake:
			a.releasePending(release)
		}
	}
}

// Flush releases every buffered trace now, complete or not (end of a
// replay, shutdown). A ctx marked by queue.WithWait makes it wait for
// room in the sink until ctx ends.
func (a *Assembler) Flush(ctx context.Context) error {
	a.cut(ctx, a.clock(), true)
	return ctx.Err()
}

// Cut runs one release pass as of now. With immediate set every buffered
// trace is released.
func (a *Assembler) Cut(now time.Time, immediate bool) {
	a.cut(context.Background(), now, immediate)
}

// LiveTraces returns the number of traces buffered.
func (a *Assembler) LiveTraces() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.traces)
}

// BufferedBytes returns the estimated size of the buffered traces.
func (a *Assembler) BufferedBytes() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bytes
}

func (a *Assembler) drop(reason string, n int) {
	a.drops.Add(dropStage, reason, n)
}

// push adds one converted request to the buffer.
func (a *Assembler) push(ctx context.Context, now time.Time, b *batch) error {
	for reason, n := range b.dropped {
		a.drop(reason, n)
	}
	if len(b.groups) == 0 {
		return nil
	}
	if b.bytes > a.cfg.MaxBufferedBytes {
		a.log.Warn("request larger than the trace buffer refused", "bytes", b.bytes, "max_buffered_bytes", a.cfg.MaxBufferedBytes)
		return errs.NewRefused(reasonBufferFull, refuseRetryAfter)
	}

	var out []released
	a.mu.Lock()
	if a.pendingBytes > a.cfg.MaxBufferedBytes/2 {
		// the background release is behind: push back rather than grow
		a.mu.Unlock()
		return errs.NewRefused(reasonBufferFull, refuseRetryAfter)
	}
	for a.bytes+b.bytes > a.cfg.MaxBufferedBytes && len(a.traces) > 0 {
		out = append(out, a.evict(now))
	}
	for _, g := range b.groups {
		t := a.traces[g.id]
		if t == nil && a.recent.contains(g.id, now) {
			// released already, possibly just now to make room
			a.m.late.Add(float64(len(g.spans)))
			a.drop(reasonLate, len(g.spans)+len(g.logs))
			continue
		}
		if t == nil {
			if len(a.traces) >= a.cfg.MaxLiveTraces {
				out = append(out, a.evict(now))
			}
			t = &Trace{id: g.id, created: now, source: groupSource(g)}
			a.insert(t)
		}
		a.appendGroup(t, g)
		t.lastAppend = now
	}
	// evicted runs are extracted off the request path; fragments evicted
	// incomplete cost nothing to release
	inline := out[:0]
	for _, r := range out {
		if r.reason == OutcomeIncomplete {
			inline = append(inline, r)
			continue
		}
		a.pending = append(a.pending, r)
		a.pendingBytes += r.t.bytes
	}
	wake := len(a.pending) > 0
	a.m.live.Set(float64(len(a.traces)))
	a.mu.Unlock()

	if wake {
		select {
		case a.wake <- struct{}{}:
		default:
		}
	}
	a.release(ctx, inline)
	return nil
}

// releasePending extracts and submits the traces evicted on the request
// path.
func (a *Assembler) releasePending(ctx context.Context) {
	a.mu.Lock()
	out := a.pending
	a.pending, a.pendingBytes = nil, 0
	a.mu.Unlock()
	a.release(ctx, out)
}

// appendGroup adds a group's spans and logs to t, deduplicating span ids
// and enforcing max_spans_per_trace. Called with a.mu held.
func (a *Assembler) appendGroup(t *Trace, g *group) {
	var dup, over int
	if !t.run && (len(g.logs) > 0 || readsAny(g.spans)) {
		a.list(t).unlink(t)
		a.fragSources.remove(t.source)
		t.run = true
		a.runs.push(t)
	}
	if t.spans == nil {
		// the first share of a trace: move the records, do not copy them
		// (t.spans never runs ahead of the span being read)
		t.spans = g.spans[:0]
		t.arena = g.attrArena
	}
	for i := range g.spans {
		s := &g.spans[i]
		if t.has(s.id) {
			dup++
			continue
		}
		if len(t.spans) >= a.cfg.MaxSpansPerTrace {
			over++
			t.tooLarge = true
			continue
		}
		if n := len(t.spans); n < cap(t.spans) && &t.spans[:n+1][n] == s {
			t.spans = t.spans[:n+1] // moved records stay in place
		} else {
			t.spans = append(t.spans, *s)
		}
		t.noteSpan()
		sz := s.size() - t.shareSpan(s)
		t.bytes += sz
		a.bytes += sz
		if !s.hasParent() {
			t.hasRoot = true
		}
	}
	if len(g.logs) > 0 {
		start := len(t.logs)
		t.logs = append(t.logs, g.logs...)
		for i := range g.logs {
			ev := &t.logs[start+i].ev
			sz := ev.size() + 8 - t.shareEvent(ev)
			t.bytes += sz
			a.bytes += sz
		}
	}
	if g.truncated && !t.truncated {
		t.truncated = true
		a.drop(reasonTruncated, 1)
	}
	a.drop(reasonDuplicate, dup)
	a.drop(reasonSpansPer, over)
}

// insert adds t to the live fragments. Called with a.mu held.
func (a *Assembler) insert(t *Trace) {
	a.traces[t.id] = t
	t.bytes += traceOverhead
	a.bytes += traceOverhead
	a.frags.push(t)
	a.fragSources.add(t.source)
}

// list is the live list t is on.
func (a *Assembler) list(t *Trace) *traceList {
	if t.run {
		return &a.runs
	}
	return &a.frags
}

// remove takes t out of the buffer and, unless forget is set, remembers
// its id as released. Called with a.mu held.
func (a *Assembler) remove(t *Trace, now time.Time, forget bool) *Trace {
	a.list(t).unlink(t)
	if !t.run {
		a.fragSources.remove(t.source)
	}
	delete(a.traces, t.id)
	a.bytes -= t.bytes
	if !forget {
		a.recent.add(t.id, now)
	}
	return t
}

// evict makes room by taking out the oldest fragment (of a source over
// its fair share of the fragments, when there is one among the oldest),
// or the oldest run when there is no fragment. A trace whose root has not arrived is
// released as incomplete: not scored (it would read as a failed run), and
// not remembered, so that the rest of it starts a trace again. Called with
// a.mu held and a trace buffered.
func (a *Assembler) evict(now time.Time) released {
	t := a.fragSources.evictable(a.frags.oldest)
	if t == nil {
		t = a.runs.oldest
	}
	if rootEnded(t) {
		return released{t: a.remove(t, now, false), reason: OutcomeEvicted}
	}
	return released{t: a.remove(t, now, true), reason: OutcomeIncomplete}
}

// cut releases the traces that are due as of now.
func (a *Assembler) cut(ctx context.Context, now time.Time, immediate bool) {
	a.releasePending(ctx)
	var out []released
	a.mu.Lock()
	for _, l := range [...]*traceList{&a.frags, &a.runs} {
		for t := l.oldest; t != nil; {
			next := t.next
			reason := ""
			switch {
			case immediate:
				reason = OutcomeEvicted
				if rootEnded(t) {
					reason = OutcomeComplete
				}
			case now.Sub(t.created) >= a.cfg.MaxTraceAge:
				reason = OutcomeMaxAge
			case now.Sub(t.lastAppend) >= a.cfg.QuietPeriod && rootEnded(t):
				reason = OutcomeComplete
			}
			if reason != "" {
				out = append(out, released{t: a.remove(t, now, false), reason: reason})
			}
			t = next
		}
	}
	a.m.live.Set(float64(len(a.traces)))
	a.mu.Unlock()

	slices.SortFunc(out, func(x, y released) int { return bytes.Compare(x.t.id[:], y.t.id[:]) })
	a.release(ctx, out)
}

// release extracts and submits the trajectories of cut traces.
func (a *Assembler) release(ctx context.Context, out []released) {
	for _, r := range out {
		if r.reason == OutcomeIncomplete {
			a.m.traces.WithLabelValues(OutcomeIncomplete).Inc()
			a.drop(reasonIncomplete, len(r.t.spans)+len(r.t.logs))
			a.recycle(r.t)
			continue
		}
		x, _ := a.scratch.Get().(*extraction)
		if x == nil {
			x = new(extraction)
		}
		trajs := x.extract(r.t)
		unjoined := x.unjoinedLogs
		x.reset()
		a.scratch.Put(x)
		a.drop(reasonLogUnjoined, unjoined)
		outcome := r.reason
		switch {
		case len(trajs) == 0:
			outcome = OutcomeNoGenAI
		case r.t.tooLarge:
			outcome = OutcomeTooLarge
		}
		a.m.traces.WithLabelValues(outcome).Inc()
		if len(trajs) > 0 {
			if reason := partialReason(r.t); reason != "" {
				a.m.partial.WithLabelValues(reason).Inc()
			}
		}
		if outcome == OutcomeEvicted {
			a.log.Debug("trace released before it was complete", "trace_id", r.t.TraceID(), "spans", len(r.t.spans))
		}
		for _, tr := range trajs {
			// the sink counts what it refuses (Sink)
			if err := a.sink.Submit(ctx, tr); err != nil {
				a.log.Debug("trajectory refused by the scorer", "trace_id", tr.TraceID, "err", err)
			}
		}
		a.recycle(r.t)
	}
}

// recycle gives the storage of a released trace to the pool: trajectories
// hold strings and slices of their own, never the trace's records, so it
// can serve the next requests.
func (a *Assembler) recycle(t *Trace) {
	a.arenas.put(t.spans, t.arena)
	t.spans, t.arena, t.seen = nil, nil, nil
}

// rootEnded reports whether t holds its root span: a span without parent,
// or, for a trace seen only in part, the earliest agent span whose parent
// is not in the trace.
func rootEnded(t *Trace) bool {
	if t.hasRoot {
		return true
	}
	var earliest *span
	for i := range t.spans {
		s := &t.spans[i]
		if classifyGenAI(s) != classRun {
			continue
		}
		if earliest == nil || s.start < earliest.start {
			earliest = s
		}
	}
	if earliest == nil {
		return false
	}
	return !t.has(earliest.parent)
}

// traceList links live traces in arrival order.
type traceList struct{ oldest, newest *Trace }

func (l *traceList) push(t *Trace) {
	t.prev, t.next = l.newest, nil
	if l.newest != nil {
		l.newest.next = t
	} else {
		l.oldest = t
	}
	l.newest = t
}

func (l *traceList) unlink(t *Trace) {
	if t.prev != nil {
		t.prev.next = t.next
	} else {
		l.oldest = t.next
	}
	if t.next != nil {
		t.next.prev = t.prev
	} else {
		l.newest = t.prev
	}
	t.prev, t.next = nil, nil
}

// readsAny reports whether a span has an attribute a convention reads
// (the converter keeps no other span attributes but run attributes).
func readsAny(spans []span) bool {
	for i := range spans {
		if len(spans[i].attrs) > 0 {
			return true
		}
	}
	return false
}
