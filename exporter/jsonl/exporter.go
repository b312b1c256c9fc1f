package jsonl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Errors returned by Export. The dropped records are already counted.
var (
	ErrQueueFull = errors.New("jsonl exporter: queue full, evaluation dropped")
	ErrClosed    = errors.New("jsonl exporter: shut down, evaluation dropped")
)

// Exporter writes evaluations to JSON lines files. Export encodes the
// evaluation (it keeps no reference to it) and enqueues the lines; one
// background goroutine writes them through per-file buffers flushed every
// FlushInterval and on Shutdown.
type Exporter struct {
	cfg    Config
	logger *slog.Logger
	drops  *telemetry.Drops
	m      *metrics
	now    func() time.Time
	pool   batchPool

	queue chan *batch
	abort chan struct{} // closed when Shutdown's ctx ends before the drain
	done  chan struct{} // closed when the writer goroutine exits

	mu      sync.RWMutex // guards closed and started against queue close
	closed  bool
	started bool

	streams  [3]*stream // trajectories, scores, decisions
	closeErr error      // set by the writer goroutine before done
}

var _ exporter.Exporter = (*Exporter)(nil)

// New validates cfg and registers the exporter's metrics with reg (nil: not
// registered). Drops are counted in drops (nil: not counted). Files are
// opened by Start.
func New(cfg Config, logger *slog.Logger, reg prometheus.Registerer, drops *telemetry.Drops) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("jsonl exporter: %w", err)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	x := &Exporter{
		cfg:    cfg,
		logger: logger,
		drops:  drops,
		now:    time.Now,
		queue:  make(chan *batch, cfg.SendingQueue.QueueSize),
		abort:  make(chan struct{}),
		done:   make(chan struct{}),
	}
	m, err := newMetrics(reg, func() float64 { return float64(len(x.queue)) })
	if err != nil {
		return nil, err
	}
	x.m = m
	for i, name := range []string{streamTrajectories, streamScores, streamDecisions} {
		written := m.trajectories.Add
		switch name {
		case streamScores:
			written = m.scores.Add
		case streamDecisions:
			written = m.decisions.Add
		}
		x.streams[i] = &stream{
			name:      name,
			dir:       cfg.Directory,
			maxBytes:  cfg.MaxFileBytes,
			maxFiles:  cfg.MaxFiles,
			now:       func() time.Time { return x.now() },
			logger:    logger,
			onWritten: func(n int) { written(float64(n)) },
			onDropped: func(reason string, n int) { x.drops.Add(dropStage, reason, n) },
		}
	}
	return x, nil
}

// Start creates the directory, opens both files and starts the writer.
// Evaluations exported before Start wait in the queue.
func (x *Exporter) Start(context.Context) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.closed:
		return errors.New("jsonl exporter: start after shutdown")
	case x.started:
		return errors.New("jsonl exporter: already started")
	}
	for i, s := range x.streams {
		if err := s.open(); err != nil {
			for _, o := range x.streams[:i] {
				_ = o.close()
			}
			return err
		}
		s.prune()
	}
	x.started = true
	go x.run()
	x.logger.Info("jsonl exporter writing", "directory", x.cfg.Directory)
	return nil
}

// Export encodes e and enqueues its lines. When the queue is full or the
// exporter is shut down, the evaluation is dropped, counted, and an error
// returned. Records that cannot be encoded (a NaN score) are dropped and
// counted; the others are still written.
func (x *Exporter) Export(_ context.Context, e *scorer.Evaluation) error {
	if e == nil {
		return nil
	}
	b := x.pool.get()
	encode(b, e, x.now())
	n, failed := b.records(), b.failed
	var encErr error
	if failed > 0 {
		x.drops.Add(dropStage, dropEncodeError, failed)
		encErr = fmt.Errorf("jsonl exporter: %d records could not be encoded and were dropped", failed)
	}
	if n == 0 {
		x.pool.put(b)
		return encErr
	}
	x.mu.RLock()
	if x.closed {
		x.mu.RUnlock()
		x.pool.put(b)
		x.drops.Add(dropStage, dropShuttingDown, n)
		return ErrClosed
	}
	select {
	case x.queue <- b:
		x.mu.RUnlock()
		return encErr
	default:
		x.mu.RUnlock()
		x.pool.put(b)
		x.drops.Add(dropStage, dropQueueFull, n)
		return ErrQueueFull
	}
}

// run is the writer goroutine.
func (x *Exporter) run() {
	defer close(x.done)
	tick := time.NewTicker(x.cfg.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case b, ok := <-x.queue:
			if !ok {
				x.finish()
				return
			}
			select {
			case <-x.abort:
				x.dropBatch(b, dropShutdownTimeout)
				x.abandon()
				return
			default:
			}
			x.write(b)
		case <-tick.C:
			for _, s := range x.streams {
				s.holdRotate = false
				s.flush()
			}
		case <-x.abort:
			x.abandon()
			return
		}
	}
}

func (x *Exporter) write(b *batch) {
	n := b.records()
	for i := range n {
		s := x.streams[1]
		switch {
		case i < b.trajLines:
			s = x.streams[0]
		case i >= n-b.decLines:
			s = x.streams[2]
		}
		s.add(b.line(i))
	}
	x.pool.put(b)
}

func (x *Exporter) dropBatch(b *batch, reason string) {
	x.drops.Add(dropStage, reason, b.records())
	x.pool.put(b)
}

// finish writes out everything and closes the files.
func (x *Exporter) finish() {
	var errs []error
	for _, s := range x.streams {
		if err := s.close(); err != nil {
			errs = append(errs, err)
		}
	}
	x.closeErr = errors.Join(errs...)
}

// abandon counts everything not yet written as dropped and closes the files
// without writing the buffers.
func (x *Exporter) abandon() {
	for b := range x.queue { // closed by Shutdown, so this ends
		x.dropBatch(b, dropShutdownTimeout)
	}
	for _, s := range x.streams {
		s.dropPending(dropShutdownTimeout)
		_ = s.close()
	}
	x.closeErr = errors.New("jsonl exporter: shutdown deadline reached; unwritten records dropped")
}

// Shutdown stops accepting evaluations, writes everything queued and
// closes the files. If ctx ends first, what is left is dropped and counted.
func (x *Exporter) Shutdown(ctx context.Context) error {
	x.mu.Lock()
	if x.closed {
		x.mu.Unlock()
		return nil
	}
	x.closed = true
	close(x.queue)
	started := x.started
	x.mu.Unlock()

	if !started {
		for b := range x.queue {
			x.dropBatch(b, dropNotStarted)
		}
		return nil
	}
	select {
	case <-x.done:
	case <-ctx.Done():
		close(x.abort)
		<-x.done
		return fmt.Errorf("jsonl exporter: shutdown: %w", ctx.Err())
	}
	return x.closeErr
}
