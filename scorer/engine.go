package scorer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
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

	// queue holds the trajectories waiting to be scored; its consumers
	// are the engine's workers.
	queue *queue.Bounded[*extractor.Trajectory]
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
	}
	e.queue = queue.New(queue.Settings[*extractor.Trajectory]{
		Config:  cfg.SendingQueue,
		Consume: e.process,
		Drop:    func(_ *extractor.Trajectory, reason string) { e.drops.Add(dropStage, reason, 1) },
	})
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
func (e *Engine) QueueLen() int { return e.queue.Len() }

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
	var err error
	if e.blocking {
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
	case e.blocking:
		return ctx.Err()
	default:
		return errs.NewRefused("scorer_queue_full", refusedRetryAfter)
	}
}

// Start starts the workers. Only ctx's values are used: its cancellation
// does not stop the workers, Shutdown does. Calling Start again does
// nothing.
func (e *Engine) Start(ctx context.Context) { e.queue.Start(ctx) }

// Shutdown stops taking trajectories, lets the workers score and export
// everything already queued, and returns when they are done. If ctx ends
// first, the trajectories still queued or in process are counted as
// dropped (reason="shutdown_timeout"), in-flight metric calls are
// cancelled, and ctx's error is returned. An engine never started is
// started here so the queue is still drained. Calling Shutdown again
// waits again.
func (e *Engine) Shutdown(ctx context.Context) error {
	e.queue.Start(context.WithoutCancel(ctx))
	if err := e.queue.Shutdown(ctx); err != nil {
		e.logger.Warn("scorer shutdown cut short; queued runs dropped")
		return fmt.Errorf("scorer shutdown: %w", err)
	}
	return nil
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
