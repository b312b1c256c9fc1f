// Package errs classifies pipeline errors so that each stage can answer its
// caller correctly: a refused request is retried by the client, a partial
// rejection is reported and never retried, a permanent error is not retried.
package errs

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Refused reports that a stage is overloaded or shutting down and cannot
// take data now. The client should retry after RetryAfter. The OTLP receiver
// answers it with gRPC UNAVAILABLE + RetryInfo or HTTP 503 + Retry-After.
type Refused struct {
	Reason     string // a short label value, e.g. "live_traces_full", "shutting_down"
	RetryAfter time.Duration
}

func (e *Refused) Error() string {
	return fmt.Sprintf("data refused (%s), retry after %s", e.Reason, e.RetryAfter)
}

// NewRefused returns a *Refused error.
func NewRefused(reason string, retryAfter time.Duration) error {
	return &Refused{Reason: reason, RetryAfter: retryAfter}
}

// AsRefused reports whether err is or wraps a *Refused.
func AsRefused(err error) (*Refused, bool) {
	var r *Refused
	ok := errors.As(err, &r)
	return r, ok
}

// permanent marks an error that retrying cannot fix.
type permanent struct{ err error }

func (p permanent) Error() string { return "permanent: " + p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent wraps err as not retryable.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err: err}
}

// IsPermanent reports whether err was marked Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// Prefix puts p before every line of the message of err, so a
// component's "endpoint: must not be empty" becomes "forward.endpoint:
// must not be empty", and each error joined in err (errors.Join), or in
// an error that wraps a joined one, gets its own prefix. errors.Is and
// errors.As still find the errors inside. A nil err gives nil.
func Prefix(p string, err error) error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Prefix(p, e))
		}
		return errors.Join(out...)
	}
	return &prefixed{p: p, err: err}
}

// prefixed is an error with a prefix on every line of its message.
type prefixed struct {
	p   string
	err error
}

func (e *prefixed) Error() string { return e.p + strings.ReplaceAll(e.err.Error(), "\n", "\n"+e.p) }

func (e *prefixed) Unwrap() error { return e.err }
