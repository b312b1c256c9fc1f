package provider

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}
	tests := []struct {
		name   string
		header http.Header
		status int
		want   time.Duration
	}{
		{"none", h(), 429, 0},
		{"nil header", nil, 429, 0},
		{"retry-after seconds", h("Retry-After", "7"), 429, 7 * time.Second},
		{"retry-after zero", h("Retry-After", "0"), 429, 0},
		{"retry-after fractional", h("Retry-After", "1.5"), 503, 1500 * time.Millisecond},
		{"retry-after padded", h("Retry-After", " 3 "), 503, 3 * time.Second},
		{"retry-after on 503", h("Retry-After", "30"), 503, 30 * time.Second},
		{"retry-after http date", h("Retry-After", "Sun, 22 Nov 2026 03:00:42 GMT"), 429, 42 * time.Second},
		{"retry-after past date", h("Retry-After", "Sun, 22 Nov 2026 02:00:00 GMT"), 429, 0},
		{"retry-after negative", h("Retry-After", "-5"), 429, 0},
		{"retry-after garbage", h("Retry-After", "soon"), 429, 0},
		{"retry-after NaN", h("Retry-After", "NaN"), 429, 0},
		{"retry-after Inf", h("Retry-After", "+Inf"), 429, 0},
		{"retry-after huge", h("Retry-After", "99999999999999999999"), 429, maxRetryHint},
		{"retry-after-ms", h("Retry-After-Ms", "250"), 429, 250 * time.Millisecond},
		{"retry-after-ms fractional", h("Retry-After-Ms", "0.5"), 429, 500 * time.Microsecond},
		{"retry-after-ms first", h("Retry-After-Ms", "250", "Retry-After", "9"), 429, 250 * time.Millisecond},
		{"bad retry-after-ms falls back", h("Retry-After-Ms", "x", "Retry-After", "9"), 429, 9 * time.Second},
		{"openai reset requests", h("X-Ratelimit-Reset-Requests", "1s"), 429, time.Second},
		{"openai reset tokens", h("X-Ratelimit-Reset-Tokens", "6m0s"), 429, 6 * time.Minute},
		{"openai reset ms", h("X-Ratelimit-Reset-Requests", "20ms"), 429, 20 * time.Millisecond},
		{"openai reset fractional", h("X-Ratelimit-Reset-Tokens", "2m59.56s"), 429, 2*time.Minute + 59560*time.Millisecond},
		{"openai reset longest", h("X-Ratelimit-Reset-Requests", "1s", "X-Ratelimit-Reset-Tokens", "6m0s"), 429, 6 * time.Minute},
		{"openai reset exhausted first", h("X-Ratelimit-Reset-Requests", "1s", "X-Ratelimit-Remaining-Requests", "0", "X-Ratelimit-Reset-Tokens", "6m0s", "X-Ratelimit-Remaining-Tokens", "900"), 429, time.Second},
		{"openai reset plain seconds", h("X-Ratelimit-Reset-Requests", "12"), 429, 12 * time.Second},
		{"openai reset bad", h("X-Ratelimit-Reset-Requests", "later"), 429, 0},
		{"openai reset negative", h("X-Ratelimit-Reset-Requests", "-1s"), 429, 0},
		{"openai reset ignored off 429", h("X-Ratelimit-Reset-Requests", "1s"), 500, 0},
		{"retry-after beats reset", h("Retry-After", "2", "X-Ratelimit-Reset-Tokens", "6m0s"), 429, 2 * time.Second},
		{"anthropic reset", h("Anthropic-Ratelimit-Requests-Reset", "2026-11-22T03:00:10Z"), 429, 10 * time.Second},
		{"anthropic reset offset", h("Anthropic-Ratelimit-Tokens-Reset", "2026-11-22T04:00:05+01:00"), 429, 5 * time.Second},
		{"anthropic exhausted first", h(
			"Anthropic-Ratelimit-Requests-Reset", "2026-11-22T03:01:00Z", "Anthropic-Ratelimit-Requests-Remaining", "10",
			"Anthropic-Ratelimit-Output-Tokens-Reset", "2026-11-22T03:00:20Z", "Anthropic-Ratelimit-Output-Tokens-Remaining", "0"), 429, 20 * time.Second},
		{"anthropic reset past", h("Anthropic-Ratelimit-Requests-Reset", "2026-11-22T02:00:00Z"), 429, 0},
		{"anthropic reset bad", h("Anthropic-Ratelimit-Requests-Reset", "tomorrow"), 429, 0},
		{"anthropic reset ignored off 429", h("Anthropic-Ratelimit-Requests-Reset", "2026-11-22T03:00:10Z"), 529, 0},
		{"openai before anthropic", h("X-Ratelimit-Reset-Requests", "3s", "Anthropic-Ratelimit-Requests-Reset", "2026-11-22T03:00:10Z"), 429, 3 * time.Second},
		{"anthropic reset far", h("Anthropic-Ratelimit-Requests-Reset", "2030-01-01T00:00:00Z"), 429, maxRetryHint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RetryAfter(tc.header, tc.status, now); got != tc.want {
				t.Errorf("RetryAfter = %v, want %v", got, tc.want)
			}
		})
	}
}

func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"7", "1.5", "Sun, 22 Nov 2026 03:00:42 GMT", "-1", "NaN", "1e400", "6m0s", "20ms", "2026-11-22T03:00:10Z", "", "0x10", "1_000"} {
		f.Add(s, s, s, s, uint16(429))
	}
	now := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, ms, ra, reset, areset string, status uint16) {
		h := http.Header{}
		h.Set("Retry-After-Ms", ms)
		h.Set("Retry-After", ra)
		h.Set("X-Ratelimit-Reset-Tokens", reset)
		h.Set("X-Ratelimit-Remaining-Tokens", "0")
		h.Set("Anthropic-Ratelimit-Requests-Reset", areset)
		d := RetryAfter(h, int(status), now)
		if d < 0 || d > maxRetryHint {
			t.Fatalf("RetryAfter = %v, outside [0, %v]", d, maxRetryHint)
		}
		if int(status) != http.StatusTooManyRequests {
			// Reset headers count only on 429.
			h.Del("X-Ratelimit-Reset-Tokens")
			h.Del("Anthropic-Ratelimit-Requests-Reset")
			if d2 := RetryAfter(h, int(status), now); d2 != d {
				t.Fatalf("reset headers changed a %d hint: %v vs %v", status, d, d2)
			}
		}
	})
}
