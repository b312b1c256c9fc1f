package judge

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

func TestClientRetryNeverBeforeRetryAfter(t *testing.T) {
	tests := []struct {
		name   string
		kind   string
		jitter float64
		errs   []error
		// minGaps[i] is the least time between attempt i and i+1.
		minGaps []time.Duration
	}{
		{
			name:    "retry-after longer than backoff",
			jitter:  0.99,
			errs:    []error{jerr(ClassRateLimited, 429, 30*time.Second)},
			minGaps: []time.Duration{30 * time.Second},
		},
		{
			name:    "backoff longer than retry-after",
			jitter:  0.99,
			errs:    []error{jerr(ClassOverloaded, 529, 0), jerr(ClassServerError, 500, 0), jerr(ClassRateLimited, 429, 100*time.Millisecond)},
			minGaps: []time.Duration{0, 0, 100 * time.Millisecond},
		},
		{
			name:    "hint on every attempt",
			jitter:  0,
			errs:    []error{jerr(ClassRateLimited, 429, 5*time.Second), jerr(ClassRateLimited, 429, 7*time.Second), jerr(ClassOverloaded, 503, 11*time.Second)},
			minGaps: []time.Duration{5 * time.Second, 7 * time.Second, 11 * time.Second},
		},
		{
			name:    "gemini waits at least a second without a hint",
			kind:    "gemini",
			jitter:  0,
			errs:    []error{jerr(ClassRateLimited, 429, 0), jerr(ClassRateLimited, 429, 0)},
			minGaps: []time.Duration{time.Second, time.Second},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(time.Now())
			p := &fakeProvider{kind: tt.kind, script: sequence(tt.errs...)}
			c := newTestClient(t, testConfig("j"), p, clock, Options{Jitter: func() float64 { return tt.jitter }})
			resp, err := c.Judge(context.Background(), testRequest())
			if err != nil {
				t.Fatalf("Judge: %v", err)
			}
			times := p.Times()
			if len(times) != len(tt.errs)+1 || resp.Attempts != len(times) {
				t.Fatalf("attempts: provider saw %d, response says %d, want %d", len(times), resp.Attempts, len(tt.errs)+1)
			}
			for i, gap := range tt.minGaps {
				if got := times[i+1].Sub(times[i]); got < gap {
					t.Errorf("attempt %d started %s after attempt %d, want >= %s", i+2, got, i+1, gap)
				}
			}
		})
	}
}

func TestRetryDelay(t *testing.T) {
	tests := []struct {
		name       string
		kind       string
		retry      int
		jitter     float64
		retryAfter time.Duration
		want       time.Duration
	}{
		{"no jitter is no wait", "openai", 1, 0, 0, 0},
		{"first retry up to 1s", "openai", 1, 0.5, 0, 500 * time.Millisecond},
		{"third retry up to 4s", "anthropic", 3, 0.5, 0, 2 * time.Second},
		{"capped at 60s", "openai", 10, 0.5, 0, 30 * time.Second},
		{"huge retry number capped", "openai", 1 << 20, 1, 0, 60 * time.Second},
		{"retry-after wins", "openai", 1, 0.9, 30 * time.Second, 30 * time.Second},
		{"backoff wins", "openai", 4, 0.5, time.Second, 4 * time.Second},
		{"gemini floor", "gemini", 1, 0.1, 0, time.Second},
		{"gemini above floor", "gemini", 3, 0.5, 0, 2 * time.Second},
		{"jitter out of range clamped", "openai", 2, 7, 0, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := retryDelay(jerr(ClassRateLimited, 429, tt.retryAfter), tt.retry, tt.jitter, tt.kind)
			if got != tt.want {
				t.Errorf("retryDelay = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestClientBackoffBoundedAndJittered(t *testing.T) {
	jitters := []float64{0.9, 0.1, 0.6}
	clock := newFakeClock(time.Now())
	p := &fakeProvider{script: always(jerr(ClassServerError, 500, 0))}
	n := 0
	c := newTestClient(t, testConfig("j"), p, clock, Options{Jitter: func() float64 {
		j := jitters[n%len(jitters)]
		n++
		return j
	}})
	_, err := c.Judge(context.Background(), testRequest())
	if ClassOf(err) != ClassServerError {
		t.Fatalf("error class = %q, want server_error (err %v)", ClassOf(err), err)
	}
	sleeps := clock.Sleeps()
	want := []time.Duration{900 * time.Millisecond, 200 * time.Millisecond, 2400 * time.Millisecond}
	if len(sleeps) != len(want) {
		t.Fatalf("sleeps = %v, want %v", sleeps, want)
	}
	for i := range want {
		if sleeps[i] != want[i] {
			t.Errorf("sleep %d = %s, want %s", i, sleeps[i], want[i])
		}
		if ceil := backoffCeiling(i + 1); sleeps[i] > ceil {
			t.Errorf("sleep %d = %s above the ceiling %s", i, sleeps[i], ceil)
		}
	}
	if p.Attempts() != DefaultMaxRetries+1 {
		t.Errorf("attempts = %d, want %d", p.Attempts(), DefaultMaxRetries+1)
	}
}

func TestClientGivesUpWhenDelayPassesDeadline(t *testing.T) {
	tests := []struct {
		name         string
		deadline     time.Duration
		err          *Error
		wantAttempts int
	}{
		{"retry-after beyond deadline", 10 * time.Second, jerr(ClassRateLimited, 429, 30*time.Second), 1},
		{"retry-after equal to deadline", 30 * time.Second, jerr(ClassRateLimited, 429, 30*time.Second), 1},
		{"retry-after within deadline", 5 * time.Minute, jerr(ClassRateLimited, 429, 30*time.Second), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(time.Now())
			p := &fakeProvider{script: sequence(tt.err)}
			c := newTestClient(t, testConfig("j"), p, clock, Options{})
			ctx, cancel := context.WithDeadline(context.Background(), clock.Now().Add(tt.deadline))
			defer cancel()
			_, err := c.Judge(ctx, testRequest())
			if p.Attempts() != tt.wantAttempts {
				t.Fatalf("attempts = %d, want %d", p.Attempts(), tt.wantAttempts)
			}
			if tt.wantAttempts == 1 {
				var je *Error
				if !errors.As(err, &je) || je != tt.err {
					t.Errorf("error = %v, want the last attempt's error", err)
				}
				if len(clock.Sleeps()) != 0 {
					t.Errorf("slept %v before giving up", clock.Sleeps())
				}
			} else if err != nil {
				t.Errorf("Judge: %v", err)
			}
		})
	}
}

func TestClientRetriesOnlyRetryableClasses(t *testing.T) {
	classes := []struct {
		class     Class
		retryable bool
	}{
		{ClassRateLimited, true},
		{ClassOverloaded, true},
		{ClassServerError, true},
		{ClassTimeout, true},
		{ClassTransport, true},
		{ClassQuotaExhausted, false},
		{ClassAuth, false},
		{ClassBadRequest, false},
		{ClassRefusal, false},
		{ClassContentFilter, false},
		{ClassTruncated, false},
		{ClassInvalidResponse, false},
	}
	for _, tt := range classes {
		t.Run(string(tt.class), func(t *testing.T) {
			clock := newFakeClock(time.Now())
			p := &fakeProvider{script: always(jerr(tt.class, 0, 0))}
			cfg := testConfig("j")
			cfg.MaxRetries = 2
			c := newTestClient(t, cfg, p, clock, Options{})
			_, err := c.Judge(context.Background(), testRequest())
			if ClassOf(err) != tt.class {
				t.Fatalf("error class = %q, want %q", ClassOf(err), tt.class)
			}
			want := 1
			if tt.retryable {
				want = cfg.MaxRetries + 1
			}
			if p.Attempts() != want {
				t.Errorf("attempts = %d, want %d", p.Attempts(), want)
			}
		})
	}
}

func TestClientClassifiesAttemptOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		cancel  bool
		script  func(context.Context, int) (*Response, error)
		want    Class
	}{
		{
			name:    "attempt deadline passed, provider says transport",
			timeout: time.Nanosecond,
			script: func(ctx context.Context, _ int) (*Response, error) {
				<-ctx.Done()
				return nil, &Error{Class: ClassTransport, Err: ctx.Err()}
			},
			want: ClassTimeout,
		},
		{
			name:    "attempt deadline passed, plain context error",
			timeout: time.Nanosecond,
			script: func(ctx context.Context, _ int) (*Response, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			},
			want: ClassTimeout,
		},
		{
			name:   "caller canceled",
			cancel: true,
			script: func(ctx context.Context, _ int) (*Response, error) {
				return nil, &Error{Class: ClassTransport, Err: context.Canceled}
			},
			want: ClassCanceled,
		},
		{
			name:   "unclassified error",
			script: func(context.Context, int) (*Response, error) { return nil, errors.New("odd") },
			want:   ClassInvalidResponse,
		},
		{
			name:   "nil response without error",
			script: func(context.Context, int) (*Response, error) { return nil, nil },
			want:   ClassInvalidResponse,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(time.Now())
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			script := tt.script
			if tt.cancel {
				script = func(c context.Context, n int) (*Response, error) {
					cancel()
					return tt.script(c, n)
				}
			}
			p := &fakeProvider{script: script}
			cfg := testConfig("j")
			cfg.MaxRetries = 0
			if tt.timeout > 0 {
				cfg.Timeout = tt.timeout
			}
			c := newTestClient(t, cfg, p, clock, Options{})
			_, err := c.Judge(ctx, testRequest())
			if got := ClassOf(err); got != tt.want {
				t.Errorf("class = %q, want %q (err %v)", got, tt.want, err)
			}
			var je *Error
			if !errors.As(err, &je) {
				t.Errorf("error %v is not an *Error", err)
			}
		})
	}
}

func TestClientCanceledCallIsNotRetried(t *testing.T) {
	clock := newFakeClock(time.Now())
	ctx, cancel := context.WithCancel(context.Background())
	p := &fakeProvider{script: func(context.Context, int) (*Response, error) {
		cancel()
		return nil, jerr(ClassOverloaded, 503, 0)
	}}
	c := newTestClient(t, testConfig("j"), p, clock, Options{})
	_, err := c.Judge(ctx, testRequest())
	if ClassOf(err) != ClassCanceled || p.Attempts() != 1 {
		t.Errorf("class %q after %d attempts, want canceled after 1", ClassOf(err), p.Attempts())
	}
	if _, err := c.Judge(ctx, testRequest()); ClassOf(err) != ClassCanceled || p.Attempts() != 1 {
		t.Errorf("call on an ended context: class %q, attempts %d; want canceled, no attempt", ClassOf(err), p.Attempts())
	}
}

func TestClientResponseFields(t *testing.T) {
	clock := newFakeClock(time.Now())
	p := &fakeProvider{kind: "anthropic", model: "claude-judge", script: func(context.Context, int) (*Response, error) {
		clock.Advance(1500 * time.Millisecond)
		return &Response{Text: "{}", InputTokens: 2_000_000, OutputTokens: 500_000}, nil
	}}
	cfg := testConfig("primary")
	cfg.Prices = Prices{InputPerMillionTokens: 3, OutputPerMillionTokens: 15}
	c := newTestClient(t, cfg, p, clock, Options{})
	resp, err := c.Judge(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	want := Response{Text: "{}", Judge: "primary", Provider: "anthropic", Model: "claude-judge",
		InputTokens: 2_000_000, OutputTokens: 500_000, CostUSD: 13.5, Latency: 1500 * time.Millisecond, Attempts: 1}
	if *resp != want {
		t.Errorf("response = %+v, want %+v", *resp, want)
	}
}

func TestClientRejectsBadInput(t *testing.T) {
	clock := newFakeClock(time.Now())
	p := &fakeProvider{}
	c := newTestClient(t, testConfig("j"), p, clock, Options{})
	if _, err := c.Judge(context.Background(), nil); ClassOf(err) != ClassBadRequest {
		t.Errorf("nil request: class %q, want bad_request", ClassOf(err))
	}
	if _, err := NewClient(ClientConfig{}, p, Options{}, telemetry.Settings{}); err == nil {
		t.Error("NewClient accepted an invalid config")
	}
	if _, err := NewClient(testConfig("j"), nil, Options{}, telemetry.Settings{}); err == nil {
		t.Error("NewClient accepted a nil provider")
	}
}

func TestClientLogsNoContent(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clock := newFakeClock(time.Now())
	const secret = "SECRET-CONTENT-7f3a"
	p := &fakeProvider{script: sequence(
		&Error{Class: ClassRateLimited, Status: 429, RetryAfter: 2 * time.Second, Err: errors.New("echo: " + secret)},
		&Error{Class: ClassRefusal, Err: errors.New("refused: " + secret)},
	)}
	cfg := testConfig("j")
	cfg.Circuit.Failures = 1
	c := newTestClientSet(t, cfg, p, clock, Options{}, telemetry.Settings{Logger: logger})
	req := &Request{System: "sys " + secret, Prompt: "prompt " + secret, Metric: "m"}
	if _, err := c.Judge(context.Background(), req); ClassOf(err) != ClassRefusal {
		t.Fatalf("class %q, want refusal", ClassOf(err))
	}
	p.script = always(jerr(ClassOverloaded, 529, 0))
	_, _ = c.Judge(context.Background(), req)
	_, _ = c.Judge(context.Background(), req)
	out := buf.String()
	if strings.Contains(out, secret) {
		t.Errorf("logs carry content:\n%s", out)
	}
	for _, want := range []string{`"class":"rate_limited"`, `"status":429`, `"delay":`, `"class":"refusal"`, "judge circuit open", `"class":"circuit_open"`} {
		if !strings.Contains(out, want) {
			t.Errorf("logs lack %s:\n%s", want, out)
		}
	}
}

func TestFailureLevel(t *testing.T) {
	tests := map[Class]slog.Level{
		ClassCanceled:        slog.LevelDebug,
		ClassOverloaded:      slog.LevelWarn,
		ClassQuotaExhausted:  slog.LevelWarn,
		ClassAuth:            slog.LevelWarn,
		ClassRefusal:         slog.LevelInfo,
		ClassInvalidResponse: slog.LevelInfo,
	}
	for class, want := range tests {
		if got := failureLevel(class); got != want {
			t.Errorf("failureLevel(%s) = %s, want %s", class, got, want)
		}
	}
}
