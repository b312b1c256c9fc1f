package judge

import (
	"context"
	"errors"
	"testing"
	"time"
)

// fuzzClasses are the provider failures a fuzzed script draws from; the
// index len(fuzzClasses) is a success.
var fuzzClasses = []Class{
	ClassRateLimited, ClassQuotaExhausted, ClassOverloaded, ClassServerError, ClassTimeout,
	ClassTransport, ClassAuth, ClassBadRequest, ClassRefusal, ClassContentFilter,
	ClassTruncated, ClassInvalidResponse,
}

// FuzzClientRetries drives the client with provider outcomes and retry
// hints read from data, and checks the retry invariants: bounded
// attempts, no attempt before the previous hint, no retry of a class that
// is not retryable, no attempt at or past the caller's deadline, and
// every failure classified.
func FuzzClientRetries(f *testing.F) {
	f.Add([]byte{3, 0, 0, 30, 2, 5, 12, 0})
	f.Add([]byte{2, 10, 0, 90, 0, 90, 0, 90})
	f.Add([]byte{1, 255, 8, 0})
	f.Add([]byte{0, 0, 4, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		maxRetries := int(data[0] % 5)
		deadline := time.Duration(data[1]) * time.Second // 0: none
		type outcome struct {
			class      Class // "" is success
			retryAfter time.Duration
		}
		var script []outcome
		for i := 2; i+1 < len(data); i += 2 {
			o := outcome{retryAfter: time.Duration(data[i+1]%120) * time.Second}
			if k := int(data[i]) % (len(fuzzClasses) + 1); k < len(fuzzClasses) {
				o.class = fuzzClasses[k]
			}
			script = append(script, o)
		}
		clock := newFakeClock(time.Now())
		p := &fakeProvider{script: func(_ context.Context, n int) (*Response, error) {
			if n >= len(script) || script[n].class == "" {
				return okResponse(), nil
			}
			return nil, jerr(script[n].class, 0, script[n].retryAfter)
		}}
		cfg := testConfig("fuzz")
		cfg.MaxRetries = maxRetries
		jitter := 0.0
		c := newTestClient(t, cfg, p, clock, Options{Jitter: func() float64 {
			jitter += 0.37
			if jitter >= 1 {
				jitter--
			}
			return jitter
		}})
		ctx := context.Background()
		var dl time.Time
		if deadline > 0 {
			dl = clock.Now().Add(deadline)
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, dl)
			defer cancel()
		}
		resp, err := c.Judge(ctx, testRequest())
		times := p.Times()
		if len(times) == 0 || len(times) > maxRetries+1 {
			t.Fatalf("%d attempts with max_retries %d", len(times), maxRetries)
		}
		for i := 1; i < len(times); i++ {
			prev := script[i-1]
			if prev.class == "" || !jerr(prev.class, 0, 0).Retryable() {
				t.Fatalf("attempt %d follows a %q outcome", i+1, prev.class)
			}
			if gap := times[i].Sub(times[i-1]); gap < prev.retryAfter {
				t.Fatalf("attempt %d came %s after a retry-after of %s", i+1, gap, prev.retryAfter)
			}
			if !dl.IsZero() && !times[i].Before(dl) {
				t.Fatalf("attempt %d at or past the deadline", i+1)
			}
		}
		last := len(times) - 1
		succeeded := last >= len(script) || script[last].class == ""
		if succeeded {
			if err != nil || resp.Attempts != len(times) || resp.Judge != "fuzz" {
				t.Fatalf("success: resp %+v, err %v", resp, err)
			}
			return
		}
		var je *Error
		if !errors.As(err, &je) || je.Class != script[last].class {
			t.Fatalf("error %v, want the last attempt's class %q", err, script[last].class)
		}
	})
}
