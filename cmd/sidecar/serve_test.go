package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the logger's writes and the test's
// reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeStopsCleanly runs serve until its context ends (as SIGTERM ends
// it) and checks that it drains and exits 0.
func TestServeStopsCleanly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-grpc-endpoint", "127.0.0.1:0", "-http-endpoint", "127.0.0.1:0",
			"-metrics-endpoint", "127.0.0.1:0", "-jsonl-dir", t.TempDir(), "-log-format", "json"}, &stdout, &stderr)
	}()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(stderr.String(), "evalsidecar started") {
		select {
		case code := <-done:
			t.Fatalf("serve exited %d before starting: %s", code, stderr.String())
		case <-deadline:
			t.Fatalf("serve did not start: %s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("serve exited %d: %s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop")
	}
	for _, want := range []string{"refusing new data", "evalsidecar stopped"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, stderr.String())
		}
	}
}
