package otelevents

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
)

// ScopeName is the instrumentation scope of the emitted records.
const ScopeName = "github.com/evalsidecar/evalsidecar/exporter/otelevents"

// Errors returned by Export. The dropped records are already counted.
var (
	ErrQueueFull  = errors.New("otelevents exporter: queue full, evaluation events dropped")
	ErrClosed     = errors.New("otelevents exporter: shut down, evaluation events dropped")
	ErrNotStarted = errors.New("otelevents exporter: not started, evaluation events dropped")
)

// Exporter emits gen_ai.evaluation.result events: Export builds the log
// records (through a LoggerProvider, which gives them their resource and
// scope) and offers them to the sending_queue, whose consumers send what
// is queued, up to batch.max_size records, in one OTLP request. Export
// does not block, except for a draining scorer (ctx marked by
// queue.WithWait), for which it waits for room; at most queue_size records
// are in flight (queued or in a request), and every record that cannot be
// sent is dropped and counted.
type Exporter struct {
	cfg    Config
	logger *slog.Logger
	drops  *telemetry.Drops
	m      *metrics
	now    func() time.Time
	sel    selector
	queue  *queue.Bounded[sdklog.Record]

	// newExporter builds the OTLP exporter at Start; tests replace it.
	newExporter func(context.Context, Config) (sdklog.Exporter, error)

	mu      sync.RWMutex // guards started and closed against emitting
	started bool
	closed  bool
	otlp    sdklog.Exporter
	emitter otellog.Logger

	// inflight counts records accepted and not yet settled by an export.
	// Once Shutdown gave up, it changes only under settleMu.
	inflight  atomic.Int64
	settleMu  sync.Mutex
	abandoned bool // Shutdown timed out: what is in flight is counted as dropped
}

var _ exporter.Exporter = (*Exporter)(nil)

// New validates cfg and registers the exporter's metrics with
// set.Registerer (nil: not registered); drops are counted in set.Drops (nil:
// not counted). The OTLP
// client is built by Start.
func New(cfg Config, set telemetry.Settings) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("otelevents exporter: %w", err)
	}
	logger, drops := set.Log(), set.Drops
	x := &Exporter{
		cfg:         cfg,
		logger:      logger,
		drops:       drops,
		now:         time.Now,
		newExporter: newOTLPExporter,
		sel: selector{
			allMetrics:    cfg.AllMetrics,
			errors:        cfg.Errors,
			explainMax:    cfg.ExplanationMaxLength,
			deterministic: catalog.DefaultNames(),
		},
	}
	x.queue = queue.New(queue.Settings[sdklog.Record]{
		Config:       cfg.SendingQueue.Config,
		ConsumeBatch: x.send,
		MaxBatch:     cfg.SendingQueue.Batch.MaxSize,
		Drop: func(_ sdklog.Record, reason string) {
			if reason == queue.ReasonShutdownTimeout { // accepted, then left queued
				x.settleDropped(1)
			}
		},
	})
	m, err := newMetrics(set.Registerer, func() float64 { return float64(x.inflight.Load()) })
	if err != nil {
		return nil, err
	}
	x.m = m
	return x, nil
}

// Start builds the OTLP client and starts the consumers. No connection is
// made until the first export.
func (x *Exporter) Start(ctx context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.closed:
		return errors.New("otelevents exporter: start after shutdown")
	case x.started:
		return errors.New("otelevents exporter: already started")
	}
	otlp, err := x.newExporter(ctx, x.cfg)
	if err != nil {
		return err
	}
	x.otlp = otlp
	provider := sdklog.NewLoggerProvider(
		sdklog.WithResource(newResource(x.cfg)),
		sdklog.WithProcessor(recordCollector{}),
	)
	x.emitter = provider.Logger(ScopeName)
	x.queue.Start(ctx)
	x.started = true
	x.logger.Info("otelevents exporter sending gen_ai.evaluation.result events",
		"endpoint", x.cfg.Endpoint, "protocol", x.cfg.Protocol, "all_metrics", x.cfg.AllMetrics)
	return nil
}

// Export emits one event per judged result of e (every result with
// AllMetrics) and per failed metric (with Errors). Events beyond the
// queue's room, and events exported before Start or after Shutdown, are
// dropped, counted, and reported with an error.
func (x *Exporter) Export(ctx context.Context, e *scorer.Evaluation) error {
	if e == nil {
		return nil
	}
	evs := x.sel.events(e, x.now())
	if len(evs) == 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	switch {
	case x.closed:
		x.drop(dropShuttingDown, len(evs))
		return ErrClosed
	case !x.started:
		x.drop(dropNotStarted, len(evs))
		return ErrNotStarted
	}
	got := make(collected, 0, len(evs))
	for i := range evs {
		x.emitter.Emit(context.WithValue(evs[i].ctx, collectedKey{}, &got), evs[i].record)
	}
	for i, r := range got {
		x.inflight.Add(1)
		if err := x.queue.Put(ctx, r); err != nil {
			x.inflight.Add(-1)
			x.drop(dropQueueFull, len(got)-i)
			return ErrQueueFull
		}
	}
	return nil
}

// drop counts n records dropped for reason.
func (x *Exporter) drop(reason string, n int) {
	x.drops.Add(dropStage, reason, n)
	x.m.dropped.Add(float64(n))
}

// send exports a batch of records in one request and settles them.
func (x *Exporter) send(ctx context.Context, records []sdklog.Record) {
	ctx, cancel := context.WithTimeout(ctx, x.cfg.Timeout)
	defer cancel()
	err := x.otlp.Export(ctx, records)
	x.settle(len(records), err)
}

// settle accounts for n records an export request finished with.
func (x *Exporter) settle(n int, err error) {
	x.settleMu.Lock()
	defer x.settleMu.Unlock()
	if x.abandoned {
		return // already counted as dropped
	}
	x.inflight.Add(-int64(n))
	if err == nil {
		x.m.exported.Add(float64(n))
		return
	}
	x.m.failed.Add(float64(n))
	x.drops.Add(dropStage, dropExportError, n)
	x.logger.Warn("otelevents exporter: export failed; records dropped", "records", n, "err", err)
}

// settleDropped accounts for n accepted records dropped at Shutdown's
// deadline.
func (x *Exporter) settleDropped(n int) {
	x.settleMu.Lock()
	defer x.settleMu.Unlock()
	if !x.abandoned {
		x.inflight.Add(-int64(n))
		x.drop(dropShutdownTimeout, n)
	}
}

// Shutdown stops accepting evaluations and sends what is queued, within
// ctx. If ctx ends first, the records not yet sent are counted as dropped.
func (x *Exporter) Shutdown(ctx context.Context) error {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil
	}
	x.closed = true
	started := x.started
	x.mu.Unlock()
	if !started {
		return nil
	}
	err := x.queue.Shutdown(ctx)
	if err != nil {
		x.settleMu.Lock()
		x.abandoned = true
		if n := x.inflight.Swap(0); n > 0 {
			x.drop(dropShutdownTimeout, int(n))
		}
		x.settleMu.Unlock()
	}
	if serr := x.otlp.Shutdown(ctx); serr != nil && err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("otelevents exporter: shutdown: %w", err)
	}
	return nil
}

// collected receives the records Emit builds, for Export to queue them.
type collected []sdklog.Record

type collectedKey struct{}

// recordCollector is the LoggerProvider's processor: it hands every emitted
// record, cloned, to the collected list in the context of the Emit call.
type recordCollector struct{}

// Enabled is true: every event the selector chose is emitted.
func (recordCollector) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }

// OnEmit keeps a copy of r.
func (recordCollector) OnEmit(ctx context.Context, r *sdklog.Record) error {
	if c, ok := ctx.Value(collectedKey{}).(*collected); ok {
		*c = append(*c, r.Clone())
	}
	return nil
}

// Shutdown does nothing: the exporter shuts the OTLP client down.
func (recordCollector) Shutdown(context.Context) error { return nil }

// ForceFlush does nothing: records are queued as they are emitted.
func (recordCollector) ForceFlush(context.Context) error { return nil }
