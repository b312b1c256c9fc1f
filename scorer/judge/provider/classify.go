package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/truncate"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// maxDetail caps the provider text quoted in an error.
const maxDetail = 300

// common holds what every provider needs to build classified errors.
type common struct {
	kind    string
	model   string
	secrets []string
	now     func() time.Time
}

// Kind implements judge.Provider.
func (c *common) Kind() string { return c.kind }

// Model implements judge.Provider.
func (c *common) Model() string { return c.model }

// redact removes credentials from s and caps its length.
func (c *common) redact(s string) string {
	for _, sec := range c.secrets {
		s = strings.ReplaceAll(s, sec, redacted)
	}
	if len(s) > maxDetail {
		s = truncate.String(s, maxDetail) + "…"
	}
	return s
}

// statusClass maps an HTTP error status to its class. quota marks a body
// that is about quota or spend rather than rate.
func statusClass(status int, quota bool) judge.Class {
	switch {
	case quota && status >= 400 && status < 500:
		return judge.ClassQuotaExhausted
	case status == http.StatusTooManyRequests:
		return judge.ClassRateLimited
	case status == 529 || status == http.StatusServiceUnavailable:
		return judge.ClassOverloaded
	case status >= 500:
		return judge.ClassServerError
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return judge.ClassAuth
	case status >= 400:
		return judge.ClassBadRequest
	}
	return judge.ClassInvalidResponse
}

// httpError classifies an HTTP error response. code is the provider's
// error code or type, msg its message.
func (c *common) httpError(status int, h http.Header, class judge.Class, code, msg string) *judge.Error {
	detail := code
	if msg != "" {
		if detail != "" {
			detail += ": "
		}
		detail += msg
	}
	if detail == "" {
		detail = http.StatusText(status)
	}
	return &judge.Error{
		Class:      class,
		Status:     status,
		RetryAfter: RetryAfter(h, status, c.now()),
		Err:        fmt.Errorf("%s %s: %s", c.kind, c.model, c.redact(detail)),
	}
}

// callError classifies a failure that carries no provider error body:
// the body cap, the context, the network, or an undecodable answer.
func (c *common) callError(ctx context.Context, err error, x *exchange) *judge.Error {
	status, header, tooLarge := x.snapshot()
	wrap := func(class judge.Class, msg string) *judge.Error {
		return &judge.Error{Class: class, Status: status, Err: fmt.Errorf("%s %s: %s", c.kind, c.model, c.redact(msg))}
	}
	// Context errors stay in the chain for errors.Is; SDK errors do not,
	// as their text may quote credentials.
	wrapCtx := func(class judge.Class, cause error) *judge.Error {
		return &judge.Error{Class: class, Status: status, Err: fmt.Errorf("%s %s: %w", c.kind, c.model, cause)}
	}
	switch {
	case tooLarge:
		return wrap(judge.ClassInvalidResponse, errBodyTooLarge.Error())
	case errors.Is(err, errSDKPanic):
		return wrap(judge.ClassInvalidResponse, err.Error())
	case errors.Is(ctx.Err(), context.Canceled):
		return wrapCtx(judge.ClassCanceled, context.Canceled)
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return wrapCtx(judge.ClassTimeout, context.DeadlineExceeded)
	case errors.Is(err, context.Canceled):
		return wrapCtx(judge.ClassCanceled, context.Canceled)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return wrap(judge.ClassTimeout, err.Error())
	}
	if x.attempts() == 0 {
		// The SDK refused to build or send the request: sending it
		// again cannot help.
		return wrap(judge.ClassBadRequest, "request not sent: "+err.Error())
	}
	if status >= 400 {
		// An error status whose body the SDK could not read as an error.
		return c.httpError(status, header, statusClass(status, false), "", err.Error())
	}
	if status >= 200 && status < 300 {
		// Some SDKs quote the body after a newline: keep only the reason.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return wrap(judge.ClassInvalidResponse, "undecodable response: "+msg)
	}
	return wrap(judge.ClassTransport, err.Error())
}

// answerError is a failure found in a successful response.
func (c *common) answerError(class judge.Class, status int, format string, args ...any) *judge.Error {
	return &judge.Error{
		Class:  class,
		Status: status,
		Err:    fmt.Errorf("%s %s: %s", c.kind, c.model, c.redact(fmt.Sprintf(format, args...))),
	}
}

// schemaInstruction is appended to the system prompt when a schema is
// requested but structured output is off.
func schemaInstruction(schemaJSON []byte) string {
	return "\n\nAnswer with exactly one JSON object that validates against this JSON Schema, with no other text:\n" + string(schemaJSON)
}

// errSDKPanic marks a response that crashed the SDK's decoder.
var errSDKPanic = errors.New("response crashed the SDK decoder")

// guard calls fn and turns a panic inside the SDK (a decoder meeting an
// unexpected response shape) into errSDKPanic, so bad input never crashes
// the process.
func guard[T any](fn func() (T, error)) (out T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			out, err = zero, fmt.Errorf("%w: %v", errSDKPanic, r)
		}
	}()
	return fn()
}

// exchangeCall runs one SDK call under guard with an exchange recorder on its
// context and times it. A failure comes back as a *judge.Error: classify
// reads an SDK error, and a call the SDK accepted with a status that is
// not 2xx fails through unexpectedStatus.
func exchangeCall[T any](ctx context.Context, c *common, classify func(context.Context, error, *exchange) *judge.Error,
	call func(context.Context) (T, error)) (out T, latency time.Duration, jerr *judge.Error) {
	ctx, x := withExchange(ctx)
	start := time.Now()
	out, err := guard(func() (T, error) { return call(ctx) })
	latency = time.Since(start)
	if err != nil {
		return out, latency, classify(ctx, err, x)
	}
	return out, latency, c.unexpectedStatus(x)
}

// unexpectedStatus fails a call the SDK accepted although its HTTP status
// is not 2xx (a 1xx or a 3xx that was not followed).
func (c *common) unexpectedStatus(x *exchange) *judge.Error {
	status, _, _ := x.snapshot()
	if status == 0 || (status >= 200 && status < 300) {
		return nil
	}
	return c.answerError(judge.ClassInvalidResponse, status, "unexpected HTTP status %d", status)
}
