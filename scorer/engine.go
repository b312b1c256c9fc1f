package scorer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/prometheus/client_golang/prometheus"
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
	// enricher, when set, adds reference data before Evaluate.
	enricher Enricher
	// deferred, when set, is offered every evaluated run before export
	// (the judge stage).
	deferred Deferred
	// redactor, when set, redacts each trajectory before it is scored and
	// stored (SetRedactor).
	redactor Redactor
	// blocking makes Submit wait for queue space (offline replay) instead
	// of refusing when the queue is full.
	blocking bool

	queue chan *extractor.Trajectory

	// mu guards closed and the queue's closing: Submit holds it shared,
	// Shutdown exclusively, so no send races the close.
	mu     sync.RWMutex
	closed bool

	startOnce sync.Once
	cancel    context.CancelFunc // cancels the workers' context
	workers   sync.WaitGroup
	done      chan struct{} // closed when every worker has returned

	// abandoned is set when Shutdown's context ends before the queue is
	// drained: workers then count what they take as dropped.
	abandoned atomic.Bool
}

// var _ checks that the engine is the extractor's sink.
var _ extractor.Sink = (*Engine)(nil)

// NewEngine returns an engine running metrics (built with Registry.Build)
// on every submitted trajectory and exporting to sink. A nil logger
// discards logs, a nil reg registers no metrics, a nil drops counts
// nothing; a nil sink is allowed for Evaluate-only use, and Submit then
// refuses.
func NewEngine(cfg Config, metrics []Metric, sink Sink, logger *slog.Logger, reg prometheus.Registerer, drops *telemetry.Drops) (*Engine, error) {
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
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	e := &Engine{
		cfg:     cfg,
		metrics: append([]Metric(nil), metrics...),
		sink:    sink,
		logger:  logger,
		drops:   drops,
		queue:   make(chan *extractor.Trajectory, cfg.SendingQueue.QueueSize),
		done:    make(chan struct{}),
	}
	tel, err := newEngineMetrics(reg, e.metrics, e.QueueLen)
	if err != nil {
		return nil, err
	}
	e.tel = tel
	return e, nil
}

// Metrics returns the configured metrics in evaluation order.
func (e *Engine) Metrics() []Metric { return append([]Metric(nil), e.metrics...) }

// QueueLen returns the number of trajectories waiting to be scored.
func (e *Engine) QueueLen() int { return len(e.queue) }

// Deferred is work that runs after the inline metrics, off the engine's
// workers: the judge stage. Offer must not block; it may add results and
// ledger decisions to ev, which is exported right after it returns, and
// export follow-up evaluations later.
type Deferred interface {
	Offer(ctx context.Context, in *Instance, ev *Evaluation)
}

// SetDeferred sets the stage offered every evaluated run. Call it before
// Start.
func (e *Engine) SetDeferred(d Deferred) { e.deferred = d }

// SetBlocking makes Submit wait for queue space instead of refusing, for
// offline callers (replay) that want backpressure rather than drops. Call
// it before Start.
func (e *Engine) SetBlocking(block bool) { e.blocking = block }

// Submit queues t for scoring. Online it never blocks: a full queue returns
// an errs.Refused ("scorer_queue_full") and counts the drop. A blocking
// engine (SetBlocking) waits for space until ctx ends, which counts as a
// drop too. After Shutdown has begun Submit returns an errs.Refused
// ("shutting_down") and counts that drop.
func (e *Engine) Submit(ctx context.Context, t *extractor.Trajectory) error {
	if t == nil {
		return errs.Permanent(errors.New("scorer: nil trajectory"))
	}
	if e.sink == nil {
		return errs.Permanent(errors.New("scorer: engine has no sink"))
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		e.drops.Add(dropStage, dropShuttingDown, 1)
		return errs.NewRefused(dropShuttingDown, refusedRetryAfter)
	}
	if e.blocking {
		select {
		case e.queue <- t:
			return nil
		case <-ctx.Done():
			e.drops.Add(dropStage, dropQueueFull, 1)
			return ctx.Err()
		}
	}
	select {
	case e.queue <- t:
		return nil
	default:
		e.drops.Add(dropStage, dropQueueFull, 1)
		return errs.NewRefused("scorer_queue_full", refusedRetryAfter)
	}
}

// Start starts the workers. Only ctx's values are used: its cancellation
// does not stop the workers, Shutdown does. Calling Start again does
// nothing.
func (e *Engine) Start(ctx context.Context) {
	e.startOnce.Do(func() {
		wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		e.cancel = cancel
		e.workers.Add(e.cfg.SendingQueue.NumConsumers)
		for range e.cfg.SendingQueue.NumConsumers {
			go e.work(wctx)
		}
		go func() {
			e.workers.Wait()
			close(e.done)
		}()
	})
}

// Shutdown stops taking trajectories, lets the workers score and export
// everything already queued, and returns when they are done. If ctx ends
// first, the trajectories still queued are counted as dropped
// (reason="shutdown_timeout"), in-flight metric calls are cancelled, and
// ctx's error is returned. An engine never started is started here so the
// queue is still drained. Calling Shutdown again waits again.
func (e *Engine) Shutdown(ctx context.Context) error {
	e.mu.Lock()
	if !e.closed {
		e.closed = true
		close(e.queue)
	}
	e.mu.Unlock()
	e.Start(context.WithoutCancel(ctx))

	select {
	case <-e.done:
		e.cancel()
		return nil
	case <-ctx.Done():
	}
	e.abandoned.Store(true)
	e.cancel()
	n := 0
	for range e.queue { // the queue is closed: this ends when it is empty
		n++
	}
	e.drops.Add(dropStage, dropShutdownTimeout, n)
	e.logger.Warn("scorer shutdown cut short; queued runs dropped", "dropped", n)
	return fmt.Errorf("scorer shutdown: %w", ctx.Err())
}

// work scores queued trajectories until the queue is closed and empty.
func (e *Engine) work(ctx context.Context) {
	defer e.workers.Done()
	for t := range e.queue {
		if e.abandoned.Load() {
			e.drops.Add(dropStage, dropShutdownTimeout, 1)
			continue
		}
		e.process(ctx, t)
	}
}

// process evaluates one trajectory and exports the evaluation.
func (e *Engine) process(ctx context.Context, t *extractor.Trajectory) {
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
	if e.abandoned.Load() {
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
