package scorer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// refusedRetryAfter is the retry hint of a refused Submit.
const refusedRetryAfter = time.Second

// Engine scores trajectories: Submit queues them without blocking, the
// workers build an Instance, run every metric and export the Evaluation to
// the sink.
type Engine struct {
	cfg     Config
	metrics []Metric
	sink    Sink
	logger  *slog.Logger
	drops   *telemetry.Drops
	tel     *engineMetrics
	// the EngineOptions
	enricher Enricher
	deferred Deferred
	redactor Redactor
	blocking bool
	// draining is set by Drain: Submit and the exports wait for room
	// instead of refusing.
	draining atomic.Bool

	// queue holds the trajectories waiting to be scored; its consumers
	// are the engine's workers.
	queue *queue.Bounded[*agentrun.Trajectory]
}

// EngineOptions are the engine's optional collaborators, all set before
// Start.
type EngineOptions struct {
	// Enricher is called on every Instance built from a submitted
	// trajectory, before its metrics run.
	Enricher Enricher
	// Redactor, when set, redacts every trajectory's content (input,
	// output, instructions, history, tool arguments, results and errors,
	// attribute values) before any metric or exporter sees it, so nothing
	// unredacted is stored. Without it, runs are stored as received and
	// redaction applies only to judge requests.
	Redactor Redactor
	// Deferred is offered every evaluated run (the judge stage).
	Deferred Deferred
	// Blocking makes Submit wait for queue space instead of refusing, for
	// offline callers (replay) that want backpressure rather than drops.
	Blocking bool
}

// NewEngine returns an engine running metrics (built with Registry.Build)
// on every submitted trajectory and exporting to sink. A nil sink is
// allowed for Evaluate-only use, and Submit then refuses.
func NewEngine(cfg Config, set telemetry.Settings, metrics []Metric, sink Sink, opts EngineOptions) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(metrics))
	for i, m := range metrics {
		if m == nil {
			return nil, fmt.Errorf("metrics[%d]: nil metric", i)
		}
		if seen[m.Name()] {
			return nil, fmt.Errorf("metric %q: given twice", m.Name())
		}
		seen[m.Name()] = true
	}
	e := &Engine{
		cfg:      cfg,
		metrics:  append([]Metric(nil), metrics...),
		sink:     sink,
		logger:   set.Log(),
		drops:    set.Drops,
		enricher: opts.Enricher,
		redactor: opts.Redactor,
		deferred: opts.Deferred,
		blocking: opts.Blocking,
	}
	e.queue = queue.New(queue.Settings[*agentrun.Trajectory]{
		Config:  cfg.SendingQueue,
		Consume: e.process,
		Drop:    func(_ *agentrun.Trajectory, reason string) { e.drops.Add(dropStage, reason, 1) },
	})
	tel, err := newEngineMetrics(set.Registerer, e.metrics, e.QueueLen)
	if err != nil {
		return nil, err
	}
	e.tel = tel
	return e, nil
}

// Metrics returns the configured metrics in evaluation order.
func (e *Engine) Metrics() []Metric { return append([]Metric(nil), e.metrics...) }

// QueueLen returns the number of trajectories waiting to be scored.
func (e *Engine) QueueLen() int { return e.queue.Len() }

// Deferred is work that runs after the inline metrics, off the engine's
// workers: the judge stage. Offer must not block; it may add results and
// ledger decisions to ev, which is exported right after it returns, and
// export follow-up evaluations later.
type Deferred interface {
	Offer(ctx context.Context, in *Instance, ev *Evaluation)
}

// Submit queues t for scoring. Online it never blocks: a full queue returns
// an errs.Refused ("scorer_queue_full") and counts the drop. A blocking
// engine (EngineOptions.Blocking), a draining one (Drain) and a ctx marked
// by queue.WithWait wait for space until ctx ends, which counts as a drop
// too. After Shutdown has begun Submit returns an errs.Refused
// ("shutting_down") and counts that drop. Every refusal is counted here,
// so the caller must not count it again.
func (e *Engine) Submit(ctx context.Context, t *agentrun.Trajectory) error {
	if t == nil {
		return errs.Permanent(errors.New("scorer: nil trajectory"))
	}
	if e.sink == nil {
		return errs.Permanent(errors.New("scorer: engine has no sink"))
	}
	var err error
	wait := e.blocking || e.draining.Load() || queue.Waits(ctx)
	if wait {
		err = e.queue.OfferWait(ctx, t)
	} else {
		err = e.queue.Offer(t)
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, queue.ErrClosed):
		return errs.NewRefused(dropShuttingDown, refusedRetryAfter)
	case errors.Is(err, queue.ErrNotStarted):
		return errs.NewRefused(queue.ReasonNotStarted, refusedRetryAfter)
	case wait:
		return ctx.Err()
	default:
		return errs.NewRefused("scorer_queue_full", refusedRetryAfter)
	}
}

// Start starts the workers. Only ctx's values are used: its cancellation
// does not stop the workers, Shutdown does. Calling Start again does
// nothing.
func (e *Engine) Start(ctx context.Context) { e.queue.Start(ctx) }

// Drain makes the engine wait rather than refuse from now on, as a
// shutdown needs: Submit waits for room until its ctx ends, and the
// workers wait for room in the exporters' queues (queue.WithWait) until
// Shutdown's context ends. Shutdown calls it; the pipeline calls it
// earlier, before it releases the buffered traces.
func (e *Engine) Drain() { e.draining.Store(true) }

// Shutdown stops taking trajectories, lets the workers score and export
// everything already queued, and returns when they are done. If ctx ends
// first, the trajectories still queued or in process are counted as
// dropped (reason="shutdown_timeout"), in-flight metric calls are
// cancelled, and ctx's error is returned. An engine never started is
// started here so the queue is still drained. Calling Shutdown again
// waits again.
func (e *Engine) Shutdown(ctx context.Context) error {
	e.Drain()
	e.queue.Start(context.WithoutCancel(ctx))
	if err := e.queue.Shutdown(ctx); err != nil {
		e.logger.Warn("scorer shutdown cut short; queued runs dropped", "err", err)
		return fmt.Errorf("scorer shutdown: %w", err)
	}
	return nil
}

// process evaluates one trajectory and exports the evaluation.
func (e *Engine) process(ctx context.Context, t *agentrun.Trajectory) {
	if e.redactor != nil {
		redactTrajectory(t, e.redactor)
	}
	in := FromTrajectory(t)
	if e.enricher != nil {
		e.enricher.Enrich(ctx, in)
	}
	ev := e.Evaluate(ctx, in)
	if e.deferred != nil {
		e.deferred.Offer(ctx, in, ev)
	}
	e.tel.evaluations.Inc()
	if e.draining.Load() {
		ctx = queue.WithWait(ctx)
	}
	if ctx.Err() != nil { // Shutdown's deadline passed while scoring
		e.drops.Add(dropStage, dropShutdownTimeout, 1)
		return
	}
	// An exporter that drops an evaluation counts the drop itself, with its
	// own stage and reason; here only the report is counted, so one loss is
	// never counted twice.
	if err := e.export(ctx, ev); err != nil {
		e.tel.sinkErrors.Inc()
		e.logger.Debug("an exporter reported an error", "trace_id", t.TraceID, "err", err)
	}
}

// export hands ev to the sink, turning a sink panic into an error so that
// one bad evaluation cannot stop a worker.
func (e *Engine) export(ctx context.Context, ev *Evaluation) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("sink panicked: %v", p)
			e.logger.Error("scorer sink panicked", "panic", fmt.Sprint(p))
		}
	}()
	return e.sink.Export(ctx, ev)
}

// Sink receives evaluations from the engine. Export must not block for
// long: exporters enqueue and write in the background.
type Sink interface {
	Export(ctx context.Context, e *Evaluation) error
}

// Enricher adds data to an online Instance before its metrics run, for
// example the reference of a canary run found by its case id. Enrich
// reports whether it changed in. It must be safe for concurrent use.
type Enricher interface {
	Enrich(ctx context.Context, in *Instance) bool
}

// Enrichers runs several enrichers in order; it reports whether any
// changed the instance.
type Enrichers []Enricher

// Enrich calls every enricher of es on in.
func (es Enrichers) Enrich(ctx context.Context, in *Instance) bool {
	changed := false
	for _, e := range es {
		changed = e.Enrich(ctx, in) || changed
	}
	return changed
}
