package provider

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
)

// MaxBodyBytes caps a provider response body. A larger body fails the call
// as judge.ClassInvalidResponse.
const MaxBodyBytes = 1 << 20

// errBodyTooLarge is returned by a capped body read past MaxBodyBytes.
var errBodyTooLarge = errors.New("response body exceeds 1 MiB")

// exchange records what the transport saw of one Complete call's HTTP
// exchange: the SDKs do not all expose the response headers on errors,
// and a body cut at the cap must be told apart from a transport error.
type exchange struct {
	mu       sync.Mutex
	requests int
	status   int
	header   http.Header
	tooLarge bool
}

// sent counts one request handed to the transport.
func (x *exchange) sent() {
	x.mu.Lock()
	x.requests++
	x.mu.Unlock()
}

// attempts returns how many requests were handed to the transport.
func (x *exchange) attempts() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.requests
}

func (x *exchange) record(resp *http.Response) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.status = resp.StatusCode
	x.header = resp.Header.Clone()
}

func (x *exchange) markTooLarge() {
	x.mu.Lock()
	x.tooLarge = true
	x.mu.Unlock()
}

// snapshot returns the recorded status, headers and overflow flag.
func (x *exchange) snapshot() (status int, header http.Header, tooLarge bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.status, x.header, x.tooLarge
}

type exchangeKey struct{}

// withExchange returns ctx carrying a fresh exchange record.
func withExchange(ctx context.Context) (context.Context, *exchange) {
	x := &exchange{}
	return context.WithValue(ctx, exchangeKey{}, x), x
}

// cappedTransport caps every response body at MaxBodyBytes and records the
// exchange of requests whose context carries one.
type cappedTransport struct {
	base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *cappedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x != nil {
		x.sent()
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if x != nil {
		x.record(resp)
	}
	body := &cappedBody{rc: resp.Body, left: MaxBodyBytes, x: x}
	if resp.ContentLength > MaxBodyBytes {
		// A declared oversize body fails on its first read.
		body.left = -1
		if x != nil {
			x.markTooLarge()
		}
	}
	resp.Body = body
	return resp, nil
}

// cappedBody fails a read that goes past its limit.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	x    *exchange
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		if b.x != nil {
			b.x.markTooLarge()
		}
		return n - 1, errBodyTooLarge
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// capClient returns a copy of hc (or of a default client) whose transport
// caps response bodies and records exchanges.
func capClient(hc *http.Client) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &cappedTransport{base: base}
	return c
}
