package judge

import (
	"errors"
	"sync"
	"time"
)

// CircuitState is the state of a judge's circuit breaker.
type CircuitState int

// Circuit states.
const (
	// CircuitClosed lets every call through.
	CircuitClosed CircuitState = iota
	// CircuitOpen fails every call fast.
	CircuitOpen
	// CircuitHalfOpen lets one probe call through; its outcome closes or
	// reopens the circuit.
	CircuitHalfOpen
)

func (s CircuitState) String() string {
	if names := [...]string{"closed", "open", "half_open"}; s >= 0 && int(s) < len(names) {
		return names[s]
	}
	return "unknown"
}

// errCircuitOpen is the underlying error of ClassCircuitOpen failures.
var errCircuitOpen = errors.New("circuit breaker open")

// verdict is what one finished call tells the breaker.
type verdict int

const (
	// verdictNeutral says nothing about the provider's health: the
	// caller's context ended, or a budget refused the call.
	verdictNeutral verdict = iota
	// verdictHealthy: the provider answered, even with a bad request, a
	// refusal or an answer that does not parse.
	verdictHealthy
	// verdictFailed: the provider is unavailable or refuses service.
	verdictFailed
)

// verdictOf maps a call's final error to the breaker's verdict. The
// breaker counts rate limits, overload, server errors, timeouts and
// transport failures, and exhausted quota: retrying does not help it
// and a fallback judge should take over.
func verdictOf(err error) verdict {
	switch ClassOf(err) {
	case "":
		return verdictHealthy
	case ClassRateLimited, ClassOverloaded, ClassServerError, ClassTimeout, ClassTransport, ClassQuotaExhausted:
		return verdictFailed
	case ClassCanceled, ClassBudget, ClassCircuitOpen:
		return verdictNeutral
	}
	return verdictHealthy
}

// breaker is a consecutive-failures circuit breaker: closed until
// `failures` calls in a row fail, then open for openFor, then half-open
// with one probe call. It is safe for concurrent use.
type breaker struct {
	failures int
	openFor  time.Duration
	now      func() time.Time
	// onChange is called with the new state, under the lock.
	onChange func(CircuitState)

	mu       sync.Mutex
	state    CircuitState
	streak   int
	openedAt time.Time
	probing  bool
}

func newBreaker(cfg CircuitConfig, now func() time.Time, onChange func(CircuitState)) *breaker {
	if onChange == nil {
		onChange = func(CircuitState) {}
	}
	return &breaker{failures: cfg.Failures, openFor: cfg.OpenFor, now: now, onChange: onChange}
}

// set changes the state, under the lock.
func (b *breaker) set(s CircuitState) {
	if b.state != s {
		b.state = s
		b.onChange(s)
	}
}

// State returns the current state; an open circuit whose time is up
// reads as half-open.
func (b *breaker) State() CircuitState {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == CircuitOpen && !b.now().Before(b.openedAt.Add(b.openFor)) {
		return CircuitHalfOpen
	}
	return b.state
}

// blocked reports, without claiming a probe, whether a call would now
// fail fast.
func (b *breaker) blocked() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case CircuitOpen:
		return b.now().Before(b.openedAt.Add(b.openFor))
	case CircuitHalfOpen:
		return b.probing
	}
	return false
}

// allow admits a call or returns false when the circuit fails it fast.
// probe is true when the call is the half-open probe: its outcome must be
// passed to done.
func (b *breaker) allow() (probe, ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case CircuitClosed:
		return false, true
	case CircuitOpen:
		if b.now().Before(b.openedAt.Add(b.openFor)) {
			return false, false
		}
		b.set(CircuitHalfOpen)
	}
	if b.probing {
		return false, false
	}
	b.probing = true
	return true, true
}

// done records the verdict of an admitted call.
func (b *breaker) done(probe bool, v verdict) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
		switch v {
		case verdictHealthy:
			b.streak = 0
			b.set(CircuitClosed)
		case verdictFailed:
			b.open()
		}
		// A neutral probe leaves the circuit half-open for the next call.
		return
	}
	if b.state != CircuitClosed {
		// Calls admitted before the circuit opened do not change it:
		// only the probe does.
		return
	}
	switch v {
	case verdictHealthy:
		b.streak = 0
	case verdictFailed:
		b.streak++
		if b.streak >= b.failures {
			b.open()
		}
	}
}

// open opens the circuit now, under the lock.
func (b *breaker) open() {
	b.streak = 0
	b.openedAt = b.now()
	b.set(CircuitOpen)
}
