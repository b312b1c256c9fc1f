package judge

import (
	"context"
	"time"
)

// Backoff between retries: full jitter, a random delay in
// [0, min(backoffCap, backoffBase·2^(retry-1))], never shorter than the
// provider's retry hint.
const (
	backoffBase = time.Second
	backoffCap  = 60 * time.Second
	// geminiMinDelay is Vertex AI's documented minimum delay between
	// retries of a 429 RESOURCE_EXHAUSTED, which carries no retry hint.
	geminiMinDelay = time.Second
)

// backoffCeiling returns the largest backoff before retry number retry
// (1 for the first retry).
func backoffCeiling(retry int) time.Duration {
	// 2^6 s already passes the cap; stop shifting before it overflows.
	retry = min(max(retry, 1), 7)
	return min(backoffBase<<(retry-1), backoffCap)
}

// retryDelay returns the wait before retry number retry after err: the
// jittered backoff (jitter in [0, 1)), at least 1s for Gemini, and never
// less than err's retry hint.
func retryDelay(err *Error, retry int, jitter float64, kind string) time.Duration {
	jitter = min(max(jitter, 0), 1)
	d := time.Duration(jitter * float64(backoffCeiling(retry)))
	if kind == "gemini" {
		d = max(d, geminiMinDelay)
	}
	return max(d, err.RetryAfter)
}

// sleepContext waits d or until ctx ends, whichever is first, and returns
// ctx's error in the second case.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
