package provider

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryHint caps a parsed retry hint. A larger value is treated as this
// cap: the client's own limits decide whether to wait that long.
const maxRetryHint = 24 * time.Hour

// RetryAfter returns the retry hint carried by a provider response's
// headers, or 0 when there is none. It reads, in order:
//
//   - retry-after-ms: milliseconds (OpenAI, Azure OpenAI);
//   - retry-after: seconds or an HTTP date (all providers);
//   - on 429 only, OpenAI's x-ratelimit-reset-requests and
//     x-ratelimit-reset-tokens ("1s", "6m0s", "20ms");
//   - on 429 only, Anthropic's anthropic-ratelimit-*-reset (RFC 3339).
//
// For the reset headers, the limits whose matching remaining header is 0
// are preferred; otherwise the longest reset is used. now is the time the
// response arrived. Hints are never negative and at most 24 hours.
func RetryAfter(h http.Header, status int, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if d, ok := parseNumber(h.Get("Retry-After-Ms"), time.Millisecond); ok {
		return d
	}
	if d, ok := parseRetryAfter(h.Get("Retry-After"), now); ok {
		return d
	}
	if status != http.StatusTooManyRequests {
		return 0
	}
	if d, ok := openAIReset(h); ok {
		return d
	}
	if d, ok := anthropicReset(h, now); ok {
		return d
	}
	return 0
}

// clampHint bounds a hint to [0, maxRetryHint].
func clampHint(d time.Duration) time.Duration { return min(max(d, 0), maxRetryHint) }

// parseNumber converts a non-negative decimal number of unit to a
// duration, refusing NaN, infinities and negative numbers.
func parseNumber(v string, unit time.Duration) (time.Duration, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	return time.Duration(min(f*float64(unit), float64(maxRetryHint))), true
}

// parseRetryAfter reads retry-after: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if d, ok := parseNumber(v, time.Second); ok {
		return d, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return clampHint(t.Sub(now)), true
}

// resetHint reads the per-limit reset headers of kinds, named by
// name(kind, "Reset") and name(kind, "Remaining"), each reset parsed by
// parse: the longest reset of the limits that are exhausted (remaining
// "0"), else the longest.
func resetHint(h http.Header, kinds []string, name func(kind, field string) string,
	parse func(string) (time.Duration, bool)) (time.Duration, bool) {
	var best, bestExhausted time.Duration
	found, foundExhausted := false, false
	for _, k := range kinds {
		d, ok := parse(strings.TrimSpace(h.Get(name(k, "Reset"))))
		if !ok {
			continue
		}
		d = clampHint(d)
		if strings.TrimSpace(h.Get(name(k, "Remaining"))) == "0" {
			bestExhausted, foundExhausted = max(bestExhausted, d), true
		}
		best, found = max(best, d), true
	}
	if foundExhausted {
		return bestExhausted, true
	}
	return best, found
}

// openAIReset reads x-ratelimit-reset-requests and -tokens.
func openAIReset(h http.Header) (time.Duration, bool) {
	return resetHint(h, []string{"requests", "tokens"},
		func(k, f string) string { return "X-Ratelimit-" + f + "-" + k },
		func(v string) (time.Duration, bool) {
			if d, err := time.ParseDuration(v); err == nil {
				return d, true
			}
			// Some compatible servers send plain seconds.
			return parseNumber(v, time.Second)
		})
}

// anthropicReset reads anthropic-ratelimit-{requests,tokens,input-tokens,
// output-tokens}-reset.
func anthropicReset(h http.Header, now time.Time) (time.Duration, bool) {
	return resetHint(h, []string{"requests", "tokens", "input-tokens", "output-tokens"},
		func(k, f string) string { return "Anthropic-Ratelimit-" + k + "-" + f },
		func(v string) (time.Duration, bool) {
			t, err := time.Parse(time.RFC3339, v)
			return t.Sub(now), err == nil
		})
}
