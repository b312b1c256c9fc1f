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
	if d, ok := parseMillis(h.Get("Retry-After-Ms")); ok {
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
func clampHint(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return min(d, maxRetryHint)
}

// parseNumber converts a non-negative decimal number of unit to a
// duration, refusing NaN, infinities and negative numbers.
func parseNumber(v string, unit time.Duration) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false
	}
	if f*float64(unit) >= float64(maxRetryHint) {
		return maxRetryHint, true
	}
	return clampHint(time.Duration(f * float64(unit))), true
}

func parseMillis(v string) (time.Duration, bool) { return parseNumber(v, time.Millisecond) }

// parseRetryAfter reads retry-after: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if d, ok := parseNumber(v, time.Second); ok {
		return d, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return clampHint(t.Sub(now)), true
}

// pickReset chooses among per-limit reset hints: those whose limit is
// exhausted (remaining "0") first, else the longest.
func pickReset(resets []time.Duration, exhausted []bool) (time.Duration, bool) {
	var best, bestExhausted time.Duration
	found, foundExhausted := false, false
	for i, d := range resets {
		if d < 0 {
			continue
		}
		if exhausted[i] {
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
	kinds := [...]string{"requests", "tokens"}
	resets := make([]time.Duration, len(kinds))
	exhausted := make([]bool, len(kinds))
	for i, k := range kinds {
		resets[i] = -1
		v := strings.TrimSpace(h.Get("X-Ratelimit-Reset-" + k))
		if v == "" {
			continue
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			// Some compatible servers send plain seconds.
			var ok bool
			if d, ok = parseNumber(v, time.Second); !ok {
				continue
			}
		}
		resets[i] = clampHint(d)
		exhausted[i] = strings.TrimSpace(h.Get("X-Ratelimit-Remaining-"+k)) == "0"
	}
	return pickReset(resets, exhausted)
}

// anthropicReset reads anthropic-ratelimit-{requests,tokens,input-tokens,
// output-tokens}-reset.
func anthropicReset(h http.Header, now time.Time) (time.Duration, bool) {
	kinds := [...]string{"requests", "tokens", "input-tokens", "output-tokens"}
	resets := make([]time.Duration, len(kinds))
	exhausted := make([]bool, len(kinds))
	for i, k := range kinds {
		resets[i] = -1
		v := strings.TrimSpace(h.Get("Anthropic-Ratelimit-" + k + "-Reset"))
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			continue
		}
		resets[i] = clampHint(t.Sub(now))
		exhausted[i] = strings.TrimSpace(h.Get("Anthropic-Ratelimit-"+k+"-Remaining")) == "0"
	}
	return pickReset(resets, exhausted)
}
