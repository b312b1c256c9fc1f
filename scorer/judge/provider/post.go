package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// MaxBodyBytes caps a provider response body. A larger body fails the call
// as judge.ClassInvalidResponse.
const MaxBodyBytes = 1 << 20

// errBodyTooLarge fails a response body past MaxBodyBytes.
var errBodyTooLarge = errors.New("response body exceeds 1 MiB")

// reply is what one POST got back: whether the request was handed to the
// HTTP client, and the answer's status, headers and body.
type reply struct {
	sent   bool
	status int
	header http.Header
	body   []byte
}

// post sends body as JSON to url with header and reads the answer, at
// most MaxBodyBytes of it. The reply is never nil.
func post(ctx context.Context, hc *http.Client, url string, header http.Header, body any) (*reply, error) {
	r := &reply{}
	b, err := json.Marshal(body)
	if err != nil {
		return r, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return r, err
	}
	req.Header = header.Clone()
	r.sent = true
	resp, err := hc.Do(req)
	if err != nil {
		return r, err
	}
	defer func() { _ = resp.Body.Close() }()
	r.status, r.header = resp.StatusCode, resp.Header
	if resp.ContentLength > MaxBodyBytes {
		return r, errBodyTooLarge
	}
	r.body, err = io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	if err == nil && len(r.body) > MaxBodyBytes {
		err = errBodyTooLarge
	}
	return r, err
}

// exchange posts body to c.url, times the call, decodes a 2xx answer into
// a T and maps it to a judge response with answer. A failure comes back as
// a *judge.Error: an error status through classify, which reads the
// provider's error body, anything else through callError or as an invalid
// response.
func exchange[T any](ctx context.Context, c *common, header http.Header, body any,
	classify func(*reply) *judge.Error, answer func(*T, time.Duration) (*judge.Response, error)) (*judge.Response, error) {
	start := time.Now()
	r, err := post(ctx, c.hc, c.url, header, body)
	latency := time.Since(start)
	switch {
	case err != nil:
		return nil, c.callError(ctx, err, r)
	case r.status >= 400:
		return nil, classify(r)
	case r.status < 200 || r.status >= 300:
		// A 1xx, or a 3xx that was not followed.
		return nil, c.answerError(judge.ClassInvalidResponse, r.status, "unexpected HTTP status %d", r.status)
	}
	out := new(T)
	if err := json.Unmarshal(r.body, out); err != nil {
		return nil, c.answerError(judge.ClassInvalidResponse, r.status, "undecodable response: %v", err)
	}
	return answer(out, latency)
}

// httpClient returns a copy of hc (or of a default client) that does not
// follow a redirect to another origin, which would receive the
// credential headers.
func httpClient(hc *http.Client) *http.Client {
	c := &http.Client{}
	if hc != nil {
		*c = *hc
	}
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != via[0].URL.Scheme || req.URL.Host != via[0].URL.Host {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return c
}

// headers returns the configured extra headers, with set applied before
// them (defaults they may override) and then after (values they may not).
func headers(cfg Config, before, after map[string]string) http.Header {
	h := http.Header{}
	for k, v := range before {
		h.Set(k, v)
	}
	for k, v := range cfg.Headers {
		h.Set(k, string(v))
	}
	for k, v := range after {
		h.Set(k, v)
	}
	return h
}

// endpoint returns base with the escaped path elements appended and
// without its query, as the providers' clients resolve a path against
// their base URL.
func endpoint(base string, elem ...string) string {
	u, err := url.Parse(base)
	if err != nil {
		// Config.Validate has parsed it.
		return base
	}
	u = u.JoinPath(elem...)
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}
