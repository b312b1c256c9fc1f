package jsonl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/evalsidecar/evalsidecar/exporter"
	"github.com/evalsidecar/evalsidecar/internal/queue"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// Errors returned by Export. The dropped records are already counted.
var (
	ErrQueueFull  = errors.New("jsonl exporter: queue full, evaluation dropped")
	ErrClosed     = errors.New("jsonl exporter: shut down, evaluation dropped")
	ErrNotStarted = errors.New("jsonl exporter: not started, evaluation dropped")
)

// Exporter writes evaluations to JSON lines files. Export encodes the
// evaluation (it keeps no reference to it) and offers the lines to the
// sending_queue; its consumers write them through per-file buffers
// flushed every FlushInterval and on Shutdown.
type Exporter struct {
	cfg    Config
	logger *slog.Logger
	drops  *telemetry.Drops
	m      *metrics
	now    func() time.Time
	pool   batchPool
	queue  *queue.Bounded[*batch]

	// mu guards the streams and the lifecycle flags: writers, the flush
	// ticker and Shutdown take it.
	mu          sync.Mutex
	started     bool
	closed      bool
	filesClosed bool
	streams     [len(streamNames)]*stream
	stopFlush   chan struct{}
	flushDone   chan struct{}
}

var _ exporter.Exporter = (*Exporter)(nil)

// New validates cfg and registers the exporter's metrics with reg (nil: not
// registered). Drops are counted in drops (nil: not counted). Files are
// opened by Start.
func New(cfg Config, set telemetry.Settings) (*Exporter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("jsonl exporter: %w", err)
	}
	logger, drops := set.Log(), set.Drops
	x := &Exporter{
		cfg:       cfg,
		logger:    logger,
		drops:     drops,
		now:       time.Now,
		stopFlush: make(chan struct{}),
		flushDone: make(chan struct{}),
	}
	x.queue = queue.New(queue.Settings[*batch]{
		Config:  cfg.SendingQueue,
		Consume: func(_ context.Context, b *batch) { x.write(b) },
		Drop:    x.dropBatch,
	})
	m, err := newMetrics(set.Registerer, func() float64 { return float64(x.queue.Len()) }, cfg.SendingQueue.QueueSize)
	if err != nil {
		return nil, err
	}
	x.m = m
	for i, name := range streamNames {
		x.streams[i] = &stream{x: x, i: i, name: name}
	}
	return x, nil
}

// Start creates the directory, opens the files and starts the writers.
// Evaluations exported before Start wait in the queue.
func (x *Exporter) Start(ctx context.Context) error {
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
	go x.flushEvery()
	x.queue.Start(ctx)
	x.logger.Info("jsonl exporter writing", "directory", x.cfg.Directory)
	return nil
}

// Export encodes e and queues its lines. When the queue is full or the
// exporter is shut down, the evaluation is dropped, counted, and an error
// returned; with ctx marked by queue.WithWait (a draining scorer) it waits
// for room until ctx ends instead. Records that cannot be encoded (a NaN
// score) are dropped and counted; the others are still written.
func (x *Exporter) Export(ctx context.Context, e *scorer.Evaluation) error {
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
	switch err := x.queue.Put(ctx, b); {
	case err == nil:
		return encErr
	case errors.Is(err, queue.ErrClosed):
		return ErrClosed
	case errors.Is(err, queue.ErrNotStarted):
		return ErrNotStarted
	default:
		return ErrQueueFull
	}
}

// flushEvery writes the buffered lines every FlushInterval until
// Shutdown.
func (x *Exporter) flushEvery() {
	defer close(x.flushDone)
	tick := time.NewTicker(x.cfg.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-x.stopFlush:
			return
		case <-tick.C:
			x.mu.Lock()
			if !x.filesClosed {
				for _, s := range x.streams {
					s.holdRotate = false
					s.flush()
					if x.cfg.MaxAge > 0 && x.now().Sub(s.lastPrune) >= min(x.cfg.MaxAge, time.Minute) {
						s.prune() // files age without rotations too
					}
				}
			}
			x.mu.Unlock()
		}
	}
}

// write adds b's lines to the streams.
func (x *Exporter) write(b *batch) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.filesClosed { // Shutdown's deadline passed while b waited for the lock
		x.dropBatch(b, dropShutdownTimeout)
		return
	}
	for i := range b.records() {
		x.streams[b.streams[i]].add(b.line(i))
	}
	x.pool.put(b)
}

func (x *Exporter) dropBatch(b *batch, reason string) {
	x.drops.Add(dropStage, reason, b.records())
	x.pool.put(b)
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
	started := x.started
	x.mu.Unlock()

	qerr := x.queue.Shutdown(ctx) // a queue never started drops what it holds (not_started)
	if !started {
		return nil
	}
	close(x.stopFlush)
	<-x.flushDone
	x.mu.Lock()
	defer x.mu.Unlock()
	x.filesClosed = true
	var errs []error
	for _, s := range x.streams {
		if qerr != nil {
			s.dropPending(dropShutdownTimeout) // the buffers are not written either
		}
		if err := s.close(); err != nil {
			errs = append(errs, err)
		}
	}
	if qerr != nil {
		return fmt.Errorf("jsonl exporter: shutdown deadline reached; unwritten records dropped: %w", ctx.Err())
	}
	return errors.Join(errs...)
}
