package judge

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// fakeClock is a manual clock whose Sleep advances time at once.
type fakeClock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func newFakeClock(start time.Time) *fakeClock { return &fakeClock{t: start} }

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeClock) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sleeps = append(f.sleeps, d)
	f.t = f.t.Add(d)
	return nil
}

func (f *fakeClock) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// fakeProvider answers from a script and records every attempt: the time
// on the fake clock and the calls in flight.
type fakeProvider struct {
	kind, model string
	clock       *fakeClock
	// script returns the outcome of attempt n (0-based); nil answers ok.
	script func(ctx context.Context, n int) (*Response, error)

	mu          sync.Mutex
	times       []time.Time
	inFlight    int
	maxInFlight int
}

func (p *fakeProvider) Kind() string {
	if p.kind == "" {
		return "openai"
	}
	return p.kind
}

func (p *fakeProvider) Model() string {
	if p.model == "" {
		return "judge-model"
	}
	return p.model
}

func (p *fakeProvider) Complete(ctx context.Context, req *Request) (*Response, error) {
	p.mu.Lock()
	n := len(p.times)
	if p.clock != nil {
		p.times = append(p.times, p.clock.Now())
	} else {
		p.times = append(p.times, time.Time{})
	}
	p.inFlight++
	p.maxInFlight = max(p.maxInFlight, p.inFlight)
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.inFlight--
		p.mu.Unlock()
	}()
	if p.script == nil {
		return okResponse(), nil
	}
	return p.script(ctx, n)
}

func (p *fakeProvider) Attempts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.times)
}

func (p *fakeProvider) Times() []time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Time(nil), p.times...)
}

func (p *fakeProvider) MaxInFlight() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.maxInFlight
}

func okResponse() *Response {
	return &Response{Text: `{"score":1}`, InputTokens: 100, OutputTokens: 20}
}

// sequence scripts the attempts in order; attempts past the end answer
// ok.
func sequence(outcomes ...error) func(context.Context, int) (*Response, error) {
	return func(_ context.Context, n int) (*Response, error) {
		if n < len(outcomes) && outcomes[n] != nil {
			return nil, outcomes[n]
		}
		return okResponse(), nil
	}
}

// always fails every attempt with err.
func always(err error) func(context.Context, int) (*Response, error) {
	return func(context.Context, int) (*Response, error) { return nil, err }
}

func jerr(class Class, status int, retryAfter time.Duration) *Error {
	return &Error{Class: class, Status: status, RetryAfter: retryAfter, Err: errors.New("provider said no")}
}

// testConfig is a valid config named name.
func testConfig(name string) ClientConfig {
	cfg := DefaultClientConfig()
	cfg.Name = name
	return cfg
}

// newTestClient builds a client on the fake clock with the given jitter.
func newTestClient(t testing.TB, cfg ClientConfig, p *fakeProvider, clock *fakeClock, opts Options) *Client {
	t.Helper()
	return newTestClientSet(t, cfg, p, clock, opts, telemetry.Settings{})
}

// newTestClientSet is newTestClient with the client's telemetry settings.
func newTestClientSet(t testing.TB, cfg ClientConfig, p *fakeProvider, clock *fakeClock, opts Options, set telemetry.Settings) *Client {
	t.Helper()
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = clock.Sleep
	}
	if opts.Jitter == nil {
		opts.Jitter = func() float64 { return 0.5 }
	}
	if p.clock == nil {
		p.clock = clock
	}
	c, err := NewClient(cfg, p, opts, set)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func testRequest() *Request {
	return &Request{System: "You grade answers.", Prompt: "Grade this answer.", MaxOutputTokens: 100, Metric: "faithfulness"}
}
