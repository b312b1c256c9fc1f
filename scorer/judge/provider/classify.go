package provider

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/truncate"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// maxDetail caps the provider text quoted in an error.
const maxDetail = 300

// common is what every provider holds: its config, HTTP client, endpoint
// and headers, and what its classified errors name.
type common struct {
	kind    string
	model   string
	secrets []string
	now     func() time.Time
	cfg     Config
	hc      *http.Client
	url     string
	header  http.Header
}

func newCommon(kind string, cfg Config, hc *http.Client, url string, header http.Header) common {
	return common{kind: kind, model: cfg.Model, secrets: cfg.secrets(), now: time.Now, cfg: cfg, hc: hc, url: url, header: header}
}

// response is a successful answer; an empty model is the configured one.
func (c *common) response(text, model string, in, out int64, latency time.Duration) *judge.Response {
	return &judge.Response{Text: text, Provider: c.kind, Model: cmp.Or(model, c.cfg.Model),
		InputTokens: max(in, 0), OutputTokens: max(out, 0), Latency: latency}
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

// mentions reports whether text holds one of the lower-case words, in
// any case.
func mentions(text string, words ...string) bool {
	l := strings.ToLower(text)
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(l, w) })
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
	detail = cmp.Or(detail, http.StatusText(status))
	return &judge.Error{
		Class:      class,
		Status:     status,
		RetryAfter: RetryAfter(h, status, c.now()),
		Err:        fmt.Errorf("%s %s: %s", c.kind, c.model, c.redact(detail)),
	}
}

// callError classifies a failure that carries no provider error body:
// the body cap, the context, the network, or a request not sent.
func (c *common) callError(ctx context.Context, err error, r *reply) *judge.Error {
	wrap := func(class judge.Class, msg string) *judge.Error { return c.answerError(class, r.status, "%s", msg) }
	// Context errors stay in the chain for errors.Is; other errors do
	// not, as their text may quote credentials.
	wrapCtx := func(class judge.Class, cause error) *judge.Error {
		return &judge.Error{Class: class, Status: r.status, Err: fmt.Errorf("%s %s: %w", c.kind, c.model, cause)}
	}
	switch {
	case errors.Is(err, errBodyTooLarge):
		return wrap(judge.ClassInvalidResponse, errBodyTooLarge.Error())
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
	if !r.sent {
		// The request could not be built: sending it again cannot help.
		return wrap(judge.ClassBadRequest, "request not sent: "+err.Error())
	}
	if r.status >= 400 {
		// An error status whose body could not be read.
		return c.httpError(r.status, r.header, statusClass(r.status, false), "", err.Error())
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

// schemaInstruction, and the schema, are appended to the system prompt
// when a schema is requested but structured output is off.
const schemaInstruction = "\n\nAnswer with exactly one JSON object that validates against this JSON Schema, with no other text:\n"
