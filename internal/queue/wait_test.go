package queue

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestPutWaitsOnlyWhenMarked checks that Put refuses a full queue with a
// plain context and waits for room with one marked by WithWait.
func TestPutWaitsOnlyWhenMarked(t *testing.T) {
	r := newRecorder()
	r.block = make(chan struct{})
	r.started = make(chan int, 4)
	q := newQueue(r, Config{Enabled: true, NumConsumers: 1, QueueSize: 1}, nil)
	q.Start(context.Background())
	ctx := context.Background()
	if err := q.Put(ctx, 1); err != nil {
		t.Fatal(err)
	}
	<-r.started // 1 is being consumed and holds the only room
	if err := q.Put(ctx, 2); !errors.Is(err, ErrFull) {
		t.Fatalf("unmarked Put on a full queue: %v, want ErrFull", err)
	}
	done := make(chan error, 1)
	go func() { done <- q.Put(WithWait(ctx), 3) }()
	select {
	case err := <-done:
		t.Fatalf("marked Put returned %v before there was room", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(r.block)
	if err := <-done; err != nil {
		t.Fatalf("marked Put: %v", err)
	}
	if err := q.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	consumed, drops := r.snapshot()
	if len(consumed) != 2 || consumed[1] != 3 || len(drops[ReasonQueueFull]) != 1 {
		t.Fatalf("consumed %v, drops %v; want [1 3] and 2 dropped as queue_full", consumed, drops)
	}
}
