package judge

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestBreakerOpensAfterConsecutiveFailedCalls(t *testing.T) {
	tests := []struct {
		name     string
		outcomes []error // one per call; MaxRetries is 0
		wantOpen bool
	}{
		{"five overloaded", repeat(jerr(ClassOverloaded, 529, 0), 5), true},
		{"four failures", repeat(jerr(ClassServerError, 500, 0), 4), false},
		{"mixed failing classes", []error{
			jerr(ClassRateLimited, 429, 0), jerr(ClassTimeout, 0, 0), jerr(ClassTransport, 0, 0),
			jerr(ClassServerError, 502, 0), jerr(ClassQuotaExhausted, 429, 0),
		}, true},
		{"a success resets the streak", append(append(repeat(jerr(ClassOverloaded, 503, 0), 4), nil), repeat(jerr(ClassOverloaded, 503, 0), 4)...), false},
		{"a bad request resets the streak", append(append(repeat(jerr(ClassOverloaded, 503, 0), 4), jerr(ClassBadRequest, 400, 0)), repeat(jerr(ClassOverloaded, 503, 0), 4)...), false},
		{"refusals never open", repeat(jerr(ClassRefusal, 0, 0), 8), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(time.Now())
			p := &fakeProvider{script: sequence(tt.outcomes...)}
			cfg := testConfig("j")
			cfg.MaxRetries = 0
			c := newTestClient(t, cfg, p, clock, Options{})
			for range tt.outcomes {
				_, _ = c.Judge(context.Background(), testRequest())
			}
			if got := c.CircuitState() == CircuitOpen; got != tt.wantOpen {
				t.Fatalf("open = %v, want %v (state %s)", got, tt.wantOpen, c.CircuitState())
			}
			before := p.Attempts()
			_, err := c.Judge(context.Background(), testRequest())
			if tt.wantOpen {
				if ClassOf(err) != ClassCircuitOpen || p.Attempts() != before {
					t.Errorf("open circuit: class %q and %d new attempts, want circuit_open and none", ClassOf(err), p.Attempts()-before)
				}
			} else if p.Attempts() != before+1 {
				t.Errorf("closed circuit made %d attempts, want 1", p.Attempts()-before)
			}
		})
	}
}

func TestBreakerCountsCallsNotAttempts(t *testing.T) {
	clock := newFakeClock(time.Now())
	p := &fakeProvider{script: always(jerr(ClassOverloaded, 529, 0))}
	cfg := testConfig("j")
	cfg.MaxRetries = 3
	cfg.Circuit.Failures = 2
	c := newTestClient(t, cfg, p, clock, Options{})
	_, _ = c.Judge(context.Background(), testRequest())
	if c.CircuitState() != CircuitClosed || p.Attempts() != 4 {
		t.Fatalf("after one call of 4 attempts: state %s, attempts %d", c.CircuitState(), p.Attempts())
	}
	_, _ = c.Judge(context.Background(), testRequest())
	if c.CircuitState() != CircuitOpen {
		t.Fatalf("after two failed calls: state %s, want open", c.CircuitState())
	}
}

func TestBreakerHalfOpenProbe(t *testing.T) {
	tests := []struct {
		name      string
		probe     error
		wantState CircuitState
	}{
		{"probe succeeds", nil, CircuitClosed},
		{"probe fails", jerr(ClassOverloaded, 529, 0), CircuitOpen},
		{"probe gets a bad request", jerr(ClassBadRequest, 400, 0), CircuitClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(time.Now())
			entered := make(chan struct{})
			release := make(chan struct{})
			failing := true
			var mu sync.Mutex
			p := &fakeProvider{script: func(context.Context, int) (*Response, error) {
				mu.Lock()
				f := failing
				mu.Unlock()
				if f {
					return nil, jerr(ClassServerError, 500, 0)
				}
				entered <- struct{}{}
				<-release
				if tt.probe != nil {
					return nil, tt.probe
				}
				return okResponse(), nil
			}}
			cfg := testConfig("j")
			cfg.MaxRetries = 0
			cfg.Circuit = CircuitConfig{Failures: 2, OpenFor: 30 * time.Second}
			c := newTestClient(t, cfg, p, clock, Options{})
			for range 2 {
				_, _ = c.Judge(context.Background(), testRequest())
			}
			if c.CircuitState() != CircuitOpen {
				t.Fatalf("state %s, want open", c.CircuitState())
			}
			clock.Advance(30*time.Second - time.Millisecond)
			if _, err := c.Judge(context.Background(), testRequest()); ClassOf(err) != ClassCircuitOpen {
				t.Fatalf("before open_for: class %q, want circuit_open", ClassOf(err))
			}
			clock.Advance(time.Millisecond)
			if c.CircuitState() != CircuitHalfOpen {
				t.Fatalf("after open_for: state %s, want half_open", c.CircuitState())
			}
			mu.Lock()
			failing = false
			mu.Unlock()
			done := make(chan error, 1)
			go func() {
				_, err := c.Judge(context.Background(), testRequest())
				done <- err
			}()
			<-entered
			// The probe is in flight: every other call fails fast.
			attempts := p.Attempts()
			if _, err := c.Judge(context.Background(), testRequest()); ClassOf(err) != ClassCircuitOpen {
				t.Errorf("during the probe: class %q, want circuit_open", ClassOf(err))
			}
			if p.Attempts() != attempts {
				t.Errorf("a second call reached the provider during the probe")
			}
			close(release)
			if err := <-done; ClassOf(err) != ClassOf(tt.probe) {
				t.Errorf("probe error %v, want class %q", err, ClassOf(tt.probe))
			}
			if c.CircuitState() != tt.wantState {
				t.Errorf("after the probe: state %s, want %s", c.CircuitState(), tt.wantState)
			}
			if tt.wantState == CircuitOpen {
				// Reopened for a full open_for from the probe's failure.
				clock.Advance(30*time.Second - time.Millisecond)
				if c.CircuitState() != CircuitOpen {
					t.Errorf("reopened circuit half-open too early")
				}
			}
		})
	}
}

func TestBreakerNeutralProbeKeepsHalfOpen(t *testing.T) {
	clock := newFakeClock(time.Now())
	b := newBreaker(CircuitConfig{Failures: 1, OpenFor: time.Second}, clock.Now, nil)
	probe, ok := b.allow()
	if probe || !ok {
		t.Fatalf("closed: allow = %v, %v", probe, ok)
	}
	b.done(probe, verdictFailed)
	clock.Advance(time.Second)
	probe, ok = b.allow()
	if !probe || !ok {
		t.Fatalf("half-open: allow = %v, %v, want the probe", probe, ok)
	}
	if _, ok := b.allow(); ok {
		t.Fatal("a second call passed while the probe is in flight")
	}
	b.done(probe, verdictNeutral)
	if b.State() != CircuitHalfOpen {
		t.Fatalf("after a neutral probe: state %s, want half_open", b.State())
	}
	probe, ok = b.allow()
	if !probe || !ok {
		t.Fatalf("after a neutral probe: allow = %v, %v, want a new probe", probe, ok)
	}
	// A late failure of a call admitted while closed does not reopen
	// the circuit during the probe.
	b.done(false, verdictFailed)
	b.done(probe, verdictHealthy)
	if b.State() != CircuitClosed {
		t.Fatalf("state %s, want closed", b.State())
	}
}

func TestCircuitStateString(t *testing.T) {
	for s, want := range map[CircuitState]string{CircuitClosed: "closed", CircuitOpen: "open", CircuitHalfOpen: "half_open", 9: "unknown"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), want)
		}
	}
}

func repeat(err error, n int) []error {
	out := make([]error, n)
	for i := range out {
		out[i] = err
	}
	return out
}
