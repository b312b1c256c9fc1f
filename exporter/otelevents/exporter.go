package otelevents

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// ScopeName is the instrumentation scope of the emitted records.
const ScopeName = "github.com/evalsidecar/evalsidecar/exporter/otelevents"

// Errors returned by Export. The dropped records are already counted.
var (
	ErrQueueFull  = errors.New("otelevents exporter: queue full, evaluation events dropped")
	ErrClosed     = errors.New("otelevents exporter: shut down, evaluation events dropped")
	ErrNotStarted = errors.New("otelevents exporter: not started, evaluation events dropped")
)

// Exporter emits gen_ai.evaluation.result events through a log SDK
// LoggerProvider whose BatchProcessor sends them over OTLP.
//
// Export builds the records and hands them to the batch processor, which
// never blocks. At most QueueSize records are in flight (queued or in an
// export request); beyond that, records are dropped and counted instead
// of letting the processor silently evict older ones.
type Exporter struct {
	cfg    Config
	logger *slog.Logger
	drops  *telemetry.Drops
	m      *metrics
	now    func() time.Time
	sel    selector

	// newExporter builds the OTLP exporter at Start; tests replace it.
	newExporter func(context.Context, Config) (sdklog.Exporter, error)

	mu       sync.RWMutex // guards started and closed against emitting
	started  bool
	closed   bool
	provider *sdklog.LoggerProvider
	emitter  otellog.Logger

	// inflight counts records accepted and not yet settled by an export.
	// Once closed, it changes only under settleMu.
	inflight  atomic.Int64
	settleMu  sync.Mutex
	abandoned bool // Shutdown timed out: what is in flight is counted as dropped
}

var _ exporter.Exporter = (*Exporter)(nil)

// New validates cfg and registers the exporter's metrics with reg (nil:
// not registered). Drops are counted in drops (nil: not counted). The OTLP
// client is built by Start.
func New(cfg Config, logger *slog.Logger, reg prometheus.Registerer, drops *telemetry.Drops) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("otelevents exporter: %w", err)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
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
			deterministic: scorer.BuiltinMetricNames(),
		},
	}
	m, err := newMetrics(reg, func() float64 { return float64(x.inflight.Load()) })
	if err != nil {
		return nil, err
	}
	x.m = m
	return x, nil
}

// Start builds the OTLP client, the batch processor and the logger
// provider. No connection is made until the first export.
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
	bp := sdklog.NewBatchProcessor(&settlingExporter{next: otlp, x: x},
		sdklog.WithMaxQueueSize(x.cfg.SendingQueue.QueueSize),
		sdklog.WithExportMaxBatchSize(x.cfg.BatchSize),
		sdklog.WithExportInterval(x.cfg.ExportInterval),
		sdklog.WithExportTimeout(x.cfg.Timeout),
	)
	x.provider = sdklog.NewLoggerProvider(
		sdklog.WithResource(newResource(x.cfg)),
		sdklog.WithProcessor(bp),
	)
	x.emitter = x.provider.Logger(ScopeName)
	x.started = true
	x.logger.Info("otelevents exporter sending gen_ai.evaluation.result events",
		"endpoint", x.cfg.Endpoint, "protocol", x.cfg.Protocol, "all_metrics", x.cfg.AllMetrics)
	return nil
}

// Export emits one event per judged result of e (every result with
// AllMetrics) and per failed metric (with Errors). Events beyond the
// queue's room, and events exported before Start or after Shutdown, are
// dropped, counted, and reported with an error.
func (x *Exporter) Export(_ context.Context, e *scorer.Evaluation) error {
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
	limit := int64(x.cfg.SendingQueue.QueueSize)
	for i := range evs {
		if x.inflight.Add(1) > limit {
			x.inflight.Add(-1)
			x.drop(dropQueueFull, len(evs)-i)
			return ErrQueueFull
		}
		x.emitter.Emit(evs[i].ctx, evs[i].record)
	}
	return nil
}

// drop counts n records dropped for reason.
func (x *Exporter) drop(reason string, n int) {
	x.drops.Add(dropStage, reason, n)
	x.m.dropped.Add(float64(n))
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
	err := x.provider.Shutdown(ctx)
	if err == nil {
		return nil
	}
	x.settleMu.Lock()
	x.abandoned = true
	if n := x.inflight.Swap(0); n > 0 {
		x.drop(dropShutdownTimeout, int(n))
	}
	x.settleMu.Unlock()
	return fmt.Errorf("otelevents exporter: shutdown: %w", err)
}

// settlingExporter reports the outcome of every export request to the
// Exporter before returning it to the batch processor.
type settlingExporter struct {
	next sdklog.Exporter
	x    *Exporter
}

// Export sends records and settles them.
func (s *settlingExporter) Export(ctx context.Context, records []sdklog.Record) error {
	err := s.next.Export(ctx, records)
	s.x.settle(len(records), err)
	return err
}

// Shutdown shuts the OTLP exporter down.
func (s *settlingExporter) Shutdown(ctx context.Context) error { return s.next.Shutdown(ctx) }

// ForceFlush flushes the OTLP exporter.
func (s *settlingExporter) ForceFlush(ctx context.Context) error { return s.next.ForceFlush(ctx) }
