package queue

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder is a stage: it keeps what it consumed and what was dropped,
// by reason.
type recorder struct {
	mu       sync.Mutex
	consumed []int
	batches  []int // sizes of the batches consumed
	drops    map[string][]int
	block    chan struct{} // when non-nil, Consume waits for it or its context
	started  chan int      // when non-nil, told of every item a consumer starts
}

func newRecorder() *recorder { return &recorder{drops: map[string][]int{}} }

func (r *recorder) consume(ctx context.Context, items []int) {
	for _, it := range items {
		if r.started != nil {
			r.started <- it
		}
	}
	if r.block != nil {
		select {
		case <-r.block:
		case <-ctx.Done():
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.consumed = append(r.consumed, items...)
	r.batches = append(r.batches, len(items))
}

func (r *recorder) drop(item int, reason string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.drops[reason] = append(r.drops[reason], item)
}

func (r *recorder) snapshot() (consumed []int, drops map[string][]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	drops = map[string][]int{}
	for k, v := range r.drops {
		drops[k] = slices.Clone(v)
	}
	return slices.Clone(r.consumed), drops
}

func newQueue(r *recorder, cfg Config, tune func(*Settings[int])) *Bounded[int] {
	set := Settings[int]{Config: cfg, ConsumeBatch: r.consume, Drop: r.drop}
	if tune != nil {
		tune(&set)
	}
	return New(set)
}

func TestOfferWithoutConsumers(t *testing.T) {
	tests := []struct {
		name      string
		size      int
		tune      func(*Settings[int])
		offers    []int
		wantQueue int
		wantDrops map[string][]int
		wantErrs  []error
	}{
		{
			name: "refuses beyond queue_size", size: 2, offers: []int{1, 2, 3, 4},
			wantQueue: 2, wantDrops: map[string][]int{ReasonQueueFull: {3, 4}},
			wantErrs: []error{nil, nil, ErrFull, ErrFull},
		},
		{
			name: "sizes count against queue_size", size: 5,
			tune:   func(s *Settings[int]) { s.Size = func(n int) int { return n } },
			offers: []int{2, 2, 2, 1}, wantQueue: 3, wantDrops: map[string][]int{ReasonQueueFull: {2}},
			wantErrs: []error{nil, nil, ErrFull, nil},
		},
		{
			name: "an item larger than the queue fits an empty one", size: 2,
			tune:   func(s *Settings[int]) { s.Size = func(n int) int { return n } },
			offers: []int{5, 1}, wantQueue: 1, wantDrops: map[string][]int{ReasonQueueFull: {1}},
			wantErrs: []error{nil, ErrFull},
		},
		{
			name: "shed oldest keeps the newest", size: 2,
			tune:   func(s *Settings[int]) { s.ShedOldest = true },
			offers: []int{1, 2, 3, 4, 5}, wantQueue: 2, wantDrops: map[string][]int{ReasonShedOldest: {1, 2, 3}},
			wantErrs: []error{nil, nil, nil, nil, nil},
		},
		{
			name: "shed oldest evicts as many as the new item needs", size: 4,
			tune: func(s *Settings[int]) {
				s.ShedOldest = true
				s.Size = func(n int) int { return n }
			},
			offers: []int{1, 1, 2, 2}, wantQueue: 2, wantDrops: map[string][]int{ReasonShedOldest: {1, 1}},
			wantErrs: []error{nil, nil, nil, nil},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecorder()
			q := newQueue(r, Config{Enabled: true, NumConsumers: 1, QueueSize: tt.size}, tt.tune)
			for i, it := range tt.offers {
				if err := q.Offer(it); !errors.Is(err, tt.wantErrs[i]) {
					t.Errorf("offer %d (%d): %v, want %v", i, it, err, tt.wantErrs[i])
				}
			}
			if q.Len() != tt.wantQueue {
				t.Errorf("Len = %d, want %d", q.Len(), tt.wantQueue)
			}
			_, drops := r.snapshot()
			if fmt.Sprint(drops) != fmt.Sprint(tt.wantDrops) {
				t.Errorf("drops %v, want %v", drops, tt.wantDrops)
			}
			// Never started: Shutdown drops the rest as not_started.
			if err := q.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			_, drops = r.snapshot()
			if got := len(drops[ReasonNotStarted]); got != tt.wantQueue {
				t.Errorf("not_started drops %d, want %d", got, tt.wantQueue)
			}
		})
	}
}

func TestShutdownDrainsInOrder(t *testing.T) {
	for _, batch := range []int{1, 3} {
		t.Run(fmt.Sprint("batch ", batch), func(t *testing.T) {
			r := newRecorder()
			q := newQueue(r, Config{Enabled: true, NumConsumers: 1, QueueSize: 100}, func(s *Settings[int]) { s.MaxBatch = batch })
			for i := range 10 { // queued before Start
				if err := q.Offer(i); err != nil {
					t.Fatal(err)
				}
			}
			q.Start(context.Background())
			if err := q.Shutdown(context.Background()); err != nil {
				t.Fatal(err)
			}
			consumed, drops := r.snapshot()
			if fmt.Sprint(consumed) != "[0 1 2 3 4 5 6 7 8 9]" || len(drops) != 0 {
				t.Errorf("consumed %v, drops %v", consumed, drops)
			}
			for _, n := range r.batches {
				if n > batch {
					t.Errorf("a batch of %d items, want at most %d", n, batch)
				}
			}
			if err := q.Offer(10); !errors.Is(err, ErrClosed) {
				t.Errorf("offer after Shutdown: %v", err)
			}
			if _, drops := r.snapshot(); fmt.Sprint(drops[ReasonShuttingDown]) != "[10]" {
				t.Errorf("shutting_down drops %v", drops[ReasonShuttingDown])
			}
			if err := q.Shutdown(context.Background()); err != nil {
				t.Errorf("second Shutdown: %v", err)
			}
		})
	}
}

// TestShutdownDeadline: when Shutdown's context ends, what is queued is
// dropped, the consumers' context is cancelled, and the item in process
// is left to its consumer.
func TestShutdownDeadline(t *testing.T) {
	r := newRecorder()
	r.block = make(chan struct{}) // never closed: only the context frees Consume
	r.started = make(chan int, 10)
	q := newQueue(r, Config{Enabled: true, NumConsumers: 1, QueueSize: 10}, nil)
	q.Start(context.Background())
	for i := range 5 {
		if err := q.Offer(i); err != nil {
			t.Fatal(err)
		}
	}
	<-r.started // item 0 is in process
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := q.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v, want the deadline", err)
	}
	_, drops := r.snapshot()
	if fmt.Sprint(drops) != fmt.Sprint(map[string][]int{ReasonShutdownTimeout: {1, 2, 3, 4}}) {
		t.Errorf("drops %v", drops)
	}
	// The consumer's context was cancelled: it finishes item 0.
	if err := q.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if consumed, _ := r.snapshot(); fmt.Sprint(consumed) != "[0]" {
		t.Errorf("consumed %v, want [0]", consumed)
	}
}

// TestRoomCoversItemsInProcess: an item being consumed keeps its room
// until Consume returns.
func TestRoomCoversItemsInProcess(t *testing.T) {
	r := newRecorder()
	r.block = make(chan struct{})
	r.started = make(chan int, 1)
	q := newQueue(r, Config{Enabled: true, NumConsumers: 1, QueueSize: 1}, nil)
	q.Start(context.Background())
	if err := q.Offer(1); err != nil {
		t.Fatal(err)
	}
	<-r.started
	if !q.Full() {
		t.Error("Full = false with the only room in process")
	}
	if err := q.Offer(2); !errors.Is(err, ErrFull) {
		t.Errorf("offer while the item is in process: %v", err)
	}
	close(r.block)
	if err := q.OfferWait(context.Background(), 3); err != nil {
		t.Errorf("blocking offer: %v", err)
	}
	if err := q.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	consumed, drops := r.snapshot()
	if fmt.Sprint(consumed) != "[1 3]" || fmt.Sprint(drops) != fmt.Sprint(map[string][]int{ReasonQueueFull: {2}}) {
		t.Errorf("consumed %v, drops %v", consumed, drops)
	}
}

func TestOfferWait(t *testing.T) {
	r := newRecorder()
	q := newQueue(r, Config{Enabled: true, NumConsumers: 1, QueueSize: 1}, nil)
	if err := q.OfferWait(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	// Full and not started: the offer waits until its context ends.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := q.OfferWait(ctx, 2); !errors.Is(err, ErrFull) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("OfferWait into a full queue: %v", err)
	}
	// Started: a waiting offer gets the room its predecessor frees.
	done := make(chan error, 1)
	go func() { done <- q.OfferWait(context.Background(), 3) }()
	q.Start(context.Background())
	if err := <-done; err != nil {
		t.Errorf("OfferWait with a consumer: %v", err)
	}
	// Shutdown wakes a waiting offer, which is then refused.
	full := newQueue(newRecorder(), Config{Enabled: true, NumConsumers: 1, QueueSize: 1}, nil)
	_ = full.Offer(1)
	go func() { done <- full.OfferWait(context.Background(), 2) }()
	time.Sleep(5 * time.Millisecond)
	_ = full.Shutdown(context.Background())
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("OfferWait across Shutdown: %v", err)
	}
	if err := q.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	consumed, drops := r.snapshot()
	if fmt.Sprint(consumed) != "[1 3]" || fmt.Sprint(drops) != fmt.Sprint(map[string][]int{ReasonQueueFull: {2}}) {
		t.Errorf("consumed %v, drops %v", consumed, drops)
	}
}

// TestDisabledConsumesInTheCaller: with enabled: false there is no queue;
// Offer does the work and Shutdown waits for the calls in progress.
func TestDisabledConsumesInTheCaller(t *testing.T) {
	r := newRecorder()
	q := newQueue(r, Config{Enabled: false}, nil)
	if err := q.Offer(1); !errors.Is(err, ErrNotStarted) {
		t.Errorf("offer before Start: %v", err)
	}
	q.Start(context.Background())
	if err := q.Offer(2); err != nil {
		t.Fatal(err)
	}
	if consumed, _ := r.snapshot(); fmt.Sprint(consumed) != "[2]" {
		t.Fatalf("consumed %v right after Offer, want [2]", consumed)
	}
	if q.Full() || q.Len() != 0 {
		t.Error("a disabled queue reports queued items")
	}
	r.block, r.started = make(chan struct{}), make(chan int, 1)
	go func() { _ = q.Offer(3) }()
	<-r.started
	shut := make(chan error, 1)
	go func() { shut <- q.Shutdown(context.Background()) }()
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned (%v) while a call was in progress", err)
	case <-time.After(10 * time.Millisecond):
	}
	close(r.block)
	if err := <-shut; err != nil {
		t.Fatal(err)
	}
	if err := q.Offer(4); !errors.Is(err, ErrClosed) {
		t.Errorf("offer after Shutdown: %v", err)
	}
	consumed, drops := r.snapshot()
	want := map[string][]int{ReasonNotStarted: {1}, ReasonShuttingDown: {4}}
	if fmt.Sprint(consumed) != "[2 3]" || fmt.Sprint(drops) != fmt.Sprint(want) {
		t.Errorf("consumed %v, drops %v", consumed, drops)
	}
}

// TestEveryItemAccountedOnce races producers, consumers and Shutdown:
// every offered item is consumed or dropped, exactly once.
func TestEveryItemAccountedOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		tune func(*Settings[int])
		wait time.Duration // Shutdown's deadline
	}{
		{"drained", Config{Enabled: true, NumConsumers: 4, QueueSize: 64}, nil, time.Minute},
		{"cut short", Config{Enabled: true, NumConsumers: 2, QueueSize: 64}, nil, time.Microsecond},
		{"shed oldest", Config{Enabled: true, NumConsumers: 2, QueueSize: 8}, func(s *Settings[int]) { s.ShedOldest = true }, time.Minute},
		{"batches", Config{Enabled: true, NumConsumers: 3, QueueSize: 64}, func(s *Settings[int]) { s.MaxBatch = 5 }, time.Minute},
		{"inline", Config{Enabled: false}, nil, time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder()
			q := newQueue(r, tc.cfg, tc.tune)
			q.Start(context.Background())
			const producers, each = 8, 500
			var wg sync.WaitGroup
			for p := range producers {
				wg.Go(func() {
					for i := range each {
						_ = q.Offer(p*each + i)
					}
				})
			}
			time.Sleep(time.Millisecond)
			ctx, cancel := context.WithTimeout(context.Background(), tc.wait)
			defer cancel()
			_ = q.Shutdown(ctx)
			wg.Wait()
			_ = q.Shutdown(context.Background()) // wait for items still in process
			consumed, drops := r.snapshot()
			seen := make(map[int]int, producers*each)
			for _, it := range consumed {
				seen[it]++
			}
			for _, items := range drops {
				for _, it := range items {
					seen[it]++
				}
			}
			for it := range producers * each {
				if seen[it] != 1 {
					t.Fatalf("item %d accounted %d times (consumed %d, drops %v)", it, seen[it], len(consumed), len(drops))
				}
			}
		})
	}
}
