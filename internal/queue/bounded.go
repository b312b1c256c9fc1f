package queue

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Reasons an item is dropped, as passed to Settings.Drop. They are the
// reason label values of evalsidecar_dropped_total.
const (
	// ReasonQueueFull: the queue had no room (or a blocking offer's
	// context ended first).
	ReasonQueueFull = "queue_full"
	// ReasonShedOldest: the item was evicted to make room for a newer one.
	ReasonShedOldest = "shed_oldest"
	// ReasonShuttingDown: offered after Shutdown began.
	ReasonShuttingDown = "shutting_down"
	// ReasonNotStarted: still queued at Shutdown of a queue never started.
	ReasonNotStarted = "not_started"
	// ReasonShutdownTimeout: still queued when Shutdown's context ended.
	ReasonShutdownTimeout = "shutdown_timeout"
)

// Errors of Offer and OfferWait. The item is already handed to Drop.
var (
	ErrFull       = errors.New("queue full")
	ErrClosed     = errors.New("queue shut down")
	ErrNotStarted = errors.New("queue not started")
)

// Settings configure a Bounded queue.
type Settings[T any] struct {
	// Config is the stage's sending_queue block.
	Config Config
	// Size is an item's share of QueueSize (rows, events, ...); nil
	// counts every item as 1.
	Size func(T) int
	// Consume does the stage's work on one item. Its context ends when
	// Shutdown's context does.
	Consume func(ctx context.Context, item T)
	// ConsumeBatch, used instead of Consume, takes up to MaxBatch items
	// at once: whatever is queued when a consumer is free. It must not
	// keep the slice.
	ConsumeBatch func(ctx context.Context, items []T)
	// MaxBatch is the most items ConsumeBatch takes; 0 means 1.
	MaxBatch int
	// Drop is told of every item the queue gives up, with its reason.
	// It is never called with the queue's lock held.
	Drop func(item T, reason string)
	// ShedOldest makes a full queue evict its oldest waiting items
	// (ReasonShedOldest) for a new one instead of refusing it.
	ShedOldest bool
}

// Bounded is a bounded FIFO queue with a fixed set of consumers. Its room,
// Config.QueueSize, covers the items queued and those being consumed: an
// item's room is freed when its Consume returns.
type Bounded[T any] struct {
	set     Settings[T]
	size    func(T) int
	consume func(context.Context, []T)
	batch   int

	mu        sync.Mutex
	items     []T
	used      int // room taken by queued and in-process items
	waiting   int // room taken by queued items
	started   bool
	closed    bool
	abandoned bool          // Shutdown's context ended: nothing more is taken
	wake      *sync.Cond    // consumers: an item arrived or the queue closed
	room      chan struct{} // closed when room is freed, for blocking offers

	ctx     context.Context
	cancel  context.CancelFunc
	running sync.WaitGroup // consumers and inline Consume calls
	idle    chan struct{}  // closed when running is done after Shutdown
}

// New returns a queue with set's configuration. Nothing is consumed
// before Start.
func New[T any](set Settings[T]) *Bounded[T] {
	q := &Bounded[T]{set: set, size: set.Size, batch: max(set.MaxBatch, 1), idle: make(chan struct{})}
	if q.size == nil {
		q.size = func(T) int { return 1 }
	}
	q.consume = set.ConsumeBatch
	if q.consume == nil {
		q.batch = 1
		q.consume = func(ctx context.Context, items []T) { set.Consume(ctx, items[0]) }
	}
	if q.set.Drop == nil {
		q.set.Drop = func(T, string) {}
	}
	q.wake = sync.NewCond(&q.mu)
	q.ctx, q.cancel = context.WithCancel(context.Background())
	return q
}

// Start starts the consumers. Only ctx's values reach Consume: its end
// does not stop them, Shutdown does. Calling Start again does nothing.
func (q *Bounded[T]) Start(ctx context.Context) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started || q.closed {
		return
	}
	q.started = true
	q.ctx, q.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if !q.set.Config.Enabled {
		return
	}
	for range q.set.Config.NumConsumers {
		q.running.Go(q.run)
	}
}

// Len is the number of items waiting for a consumer.
func (q *Bounded[T]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// Full reports whether the queue has no room left for an item of size 1.
func (q *Bounded[T]) Full() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.set.Config.Enabled && q.used >= q.set.Config.QueueSize
}

// Offer queues item without waiting. When there is no room (and
// ShedOldest cannot make any) it returns ErrFull; after Shutdown began,
// ErrClosed; the item is then handed to Drop. With the queue disabled the
// caller consumes item itself, which needs Start (else ErrNotStarted).
func (q *Bounded[T]) Offer(item T) error {
	return q.offer(context.Background(), false, item)
}

// OfferWait queues item, waiting for room until ctx ends (then ErrFull
// wrapping ctx's error; the item is handed to Drop as queue_full).
func (q *Bounded[T]) OfferWait(ctx context.Context, item T) error {
	return q.offer(ctx, true, item)
}

func (q *Bounded[T]) offer(ctx context.Context, wait bool, item T) error {
	n := q.size(item)
	q.mu.Lock()
	if !q.set.Config.Enabled {
		return q.inline(item)
	}
	var shed []T
	for {
		if q.closed {
			q.mu.Unlock()
			q.dropAll(shed, ReasonShedOldest)
			q.set.Drop(item, ReasonShuttingDown)
			return ErrClosed
		}
		if q.fits(n) {
			break
		}
		if q.set.ShedOldest && !wait && q.used-q.waiting+n <= q.set.Config.QueueSize {
			// Evicting queued items makes room: the oldest goes first.
			old := q.items[0]
			clear(q.items[:1])
			q.items = q.items[1:]
			q.used -= q.size(old)
			q.waiting -= q.size(old)
			shed = append(shed, old)
			continue
		}
		if !wait {
			q.mu.Unlock()
			q.dropAll(shed, ReasonShedOldest)
			q.set.Drop(item, ReasonQueueFull)
			return ErrFull
		}
		if q.room == nil {
			q.room = make(chan struct{})
		}
		room := q.room
		q.mu.Unlock()
		select {
		case <-room:
		case <-ctx.Done():
			q.set.Drop(item, ReasonQueueFull)
			return fmt.Errorf("%w: %w", ErrFull, ctx.Err())
		}
		q.mu.Lock()
	}
	q.items = append(q.items, item)
	q.used += n
	q.waiting += n
	q.wake.Signal()
	q.mu.Unlock()
	q.dropAll(shed, ReasonShedOldest)
	return nil
}

// fits reports whether n more fits. An item larger than the whole queue
// fits an empty one, so that it is not refused forever.
func (q *Bounded[T]) fits(n int) bool {
	return q.used+n <= q.set.Config.QueueSize || q.used == 0
}

// inline consumes item in the caller (queue disabled). q.mu is held on
// entry and released.
func (q *Bounded[T]) inline(item T) error {
	switch {
	case q.closed:
		q.mu.Unlock()
		q.set.Drop(item, ReasonShuttingDown)
		return ErrClosed
	case !q.started:
		q.mu.Unlock()
		q.set.Drop(item, ReasonNotStarted)
		return ErrNotStarted
	}
	q.running.Add(1)
	ctx := q.ctx
	q.mu.Unlock()
	defer q.running.Done()
	q.consume(ctx, []T{item})
	return nil
}

// run is one consumer: it takes items until the queue is shut down and
// empty, or abandoned.
func (q *Bounded[T]) run() {
	buf := make([]T, 0, q.batch)
	for {
		items, ok := q.take(buf[:0])
		if !ok {
			return
		}
		q.consume(q.ctx, items)
		q.release(items)
		clear(items)
	}
}

// take waits for items and appends up to a batch of them to buf.
func (q *Bounded[T]) take(buf []T) ([]T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed && !q.abandoned {
		q.wake.Wait()
	}
	if len(q.items) == 0 || q.abandoned {
		return nil, false
	}
	n := min(len(q.items), q.batch)
	items := append(buf, q.items[:n]...)
	clear(q.items[:n])
	q.items = q.items[n:]
	for _, it := range items {
		q.waiting -= q.size(it)
	}
	return items, true
}

// release frees the room of consumed items.
func (q *Bounded[T]) release(items []T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, it := range items {
		q.used -= q.size(it)
	}
	if q.room != nil {
		close(q.room)
		q.room = nil
	}
}

// Shutdown stops intake and lets the consumers work through what is
// queued. It returns nil once the queue is empty and every consumer (and
// inline call) has returned. If ctx ends first, it cancels the context of
// the consumers, drops what is still queued (ReasonShutdownTimeout) and
// returns ctx's error without waiting for the items in process. A queue
// never started drops what it holds (ReasonNotStarted). Calling Shutdown
// again waits again.
func (q *Bounded[T]) Shutdown(ctx context.Context) error {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		q.wake.Broadcast()
		if q.room != nil {
			close(q.room)
			q.room = nil
		}
		go func() { q.running.Wait(); close(q.idle) }()
	}
	if !q.started {
		left := q.items
		q.items, q.used, q.waiting = nil, 0, 0
		q.mu.Unlock()
		q.cancel()
		q.dropAll(left, ReasonNotStarted)
		return nil
	}
	q.mu.Unlock()
	select {
	case <-q.idle:
		q.cancel()
		return nil
	default:
	}
	select {
	case <-q.idle:
		q.cancel()
		return nil
	case <-ctx.Done():
	}
	// The queue is abandoned before the consumers' context is cancelled,
	// so that a consumer freed by the cancellation takes nothing more:
	// what is queued is dropped, not handed to a cancelled consumer.
	q.mu.Lock()
	q.abandoned = true
	left := q.items
	q.items = nil
	q.used -= q.waiting
	q.waiting = 0
	q.wake.Broadcast()
	q.mu.Unlock()
	q.cancel()
	q.dropAll(left, ReasonShutdownTimeout)
	return fmt.Errorf("queue not drained, %d queued items dropped: %w", len(left), ctx.Err())
}

func (q *Bounded[T]) dropAll(items []T, reason string) {
	for _, it := range items {
		q.set.Drop(it, reason)
	}
}
