package provider_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

// failureCase is one scripted failure and the classification it must get.
type failureCase struct {
	name string
	// reply returns the scripted reply for a wire format; ok false skips
	// the format.
	reply      func(wire string) (judgetest.Reply, bool)
	class      judge.Class
	status     int
	retryAfter time.Duration
}

func always(r judgetest.Reply) func(string) (judgetest.Reply, bool) {
	return func(string) (judgetest.Reply, bool) { return r, true }
}

func only(wire string, r judgetest.Reply) func(string) (judgetest.Reply, bool) {
	return func(w string) (judgetest.Reply, bool) { return r, w == wire }
}

var failureCases = []failureCase{
	{name: "429 retry-after seconds", reply: always(judgetest.RetryAfter(7 * time.Second)), class: judge.ClassRateLimited, status: 429, retryAfter: 7 * time.Second},
	{name: "429 retry-after-ms", reply: always(judgetest.RetryAfterMs(1500 * time.Millisecond)), class: judge.ClassRateLimited, status: 429, retryAfter: 1500 * time.Millisecond},
	{name: "429 retry-after-ms wins over retry-after", reply: always(judgetest.Reply{Status: 429, Header: header("Retry-After", "9", "Retry-After-Ms", "250")}), class: judge.ClassRateLimited, status: 429, retryAfter: 250 * time.Millisecond},
	{name: "429 without hint", reply: always(judgetest.Status(429)), class: judge.ClassRateLimited, status: 429},
	{name: "429 openai reset headers", reply: only(judgetest.OpenAI, judgetest.Reply{Status: 429, Header: header(
		"X-Ratelimit-Reset-Requests", "20ms", "X-Ratelimit-Remaining-Requests", "5",
		"X-Ratelimit-Reset-Tokens", "6m0s", "X-Ratelimit-Remaining-Tokens", "0")}),
		class: judge.ClassRateLimited, status: 429, retryAfter: 6 * time.Minute},
	{name: "429 anthropic reset headers", reply: only(judgetest.Anthropic, judgetest.Reply{Status: 429, Header: header(
		"Anthropic-Ratelimit-Requests-Reset", time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "Anthropic-Ratelimit-Requests-Remaining", "0")}),
		class: judge.ClassRateLimited, status: 429, retryAfter: -1},
	{name: "openai insufficient_quota", reply: only(judgetest.OpenAI, judgetest.Reply{Status: 429, ErrorType: "insufficient_quota", ErrorCode: "insufficient_quota", ErrorMessage: "You exceeded your current quota, please check your plan and billing details."}), class: judge.ClassQuotaExhausted, status: 429},
	{name: "openai rate limit mentioning billing", reply: only(judgetest.OpenAI, judgetest.Reply{Status: 429, ErrorCode: "rate_limit_exceeded", ErrorMessage: "Rate limit reached on requests per min (RPM). You can increase your rate limit by adding a payment method at https://platform.openai.com/account/billing."}), class: judge.ClassRateLimited, status: 429},
	{name: "anthropic spend limit", reply: only(judgetest.Anthropic, judgetest.Reply{Status: 429, ErrorType: "rate_limit_error", ErrorMessage: "enforced_spend_limit_reached: your workspace reached its monthly spend limit"}), class: judge.ClassQuotaExhausted, status: 429},
	{name: "anthropic billing error", reply: only(judgetest.Anthropic, judgetest.Reply{Status: 400, ErrorType: "billing_error", ErrorMessage: "Your credit balance is too low."}), class: judge.ClassQuotaExhausted, status: 400},
	{name: "gemini daily quota", reply: only(judgetest.Gemini, judgetest.Reply{Status: 429, ErrorMessage: "You exceeded your current quota. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 50, quotaId: GenerateRequestsPerDayPerProjectPerModel-FreeTier"}), class: judge.ClassQuotaExhausted, status: 429},
	{name: "gemini per-minute quota", reply: only(judgetest.Gemini, judgetest.Reply{Status: 429, ErrorMessage: "You exceeded your current quota, please check your plan and billing details. quotaId: GenerateRequestsPerMinutePerProjectPerModel-FreeTier", Header: header("Retry-After", "12")}), class: judge.ClassRateLimited, status: 429, retryAfter: 12 * time.Second},
	{name: "500", reply: always(judgetest.Status(500)), class: judge.ClassServerError, status: 500},
	{name: "502", reply: always(judgetest.Status(502)), class: judge.ClassServerError, status: 502},
	{name: "503 with retry-after", reply: always(judgetest.Reply{Status: 503, Header: header("Retry-After", "3")}), class: judge.ClassOverloaded, status: 503, retryAfter: 3 * time.Second},
	{name: "overloaded", reply: always(judgetest.Overloaded()), class: judge.ClassOverloaded},
	{name: "529", reply: always(judgetest.Status(529)), class: judge.ClassOverloaded, status: 529},
	{name: "401", reply: always(judgetest.Status(401)), class: judge.ClassAuth, status: 401},
	{name: "403", reply: always(judgetest.Status(403)), class: judge.ClassAuth, status: 403},
	{name: "400", reply: always(judgetest.Status(400)), class: judge.ClassBadRequest, status: 400},
	{name: "404", reply: always(judgetest.Status(404)), class: judge.ClassBadRequest, status: 404},
	{name: "413 plain text body", reply: always(judgetest.Reply{Status: 413, Body: "request entity too large"}), class: judge.ClassBadRequest, status: 413},
	{name: "502 html body", reply: always(judgetest.Reply{Status: 502, Body: "<html>bad gateway</html>", Header: header("Content-Type", "text/html")}), class: judge.ClassServerError, status: 502},
	{name: "azure prompt content filter", reply: only(judgetest.OpenAI, judgetest.Reply{Status: 400, ErrorCode: "content_filter", ErrorMessage: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy."}), class: judge.ClassContentFilter, status: 400},
	{name: "refusal", reply: always(judgetest.Reply{Refusal: "I can't help with that."}), class: judge.ClassRefusal, status: 200},
	{name: "content filter", reply: func(w string) (judgetest.Reply, bool) {
		return judgetest.Reply{Filtered: true}, w != judgetest.Anthropic
	}, class: judge.ClassContentFilter, status: 200},
	{name: "gemini prompt blocked", reply: only(judgetest.Gemini, judgetest.Reply{PromptBlocked: "PROHIBITED_CONTENT"}), class: judge.ClassContentFilter, status: 200},
	{name: "gemini blocklist", reply: only(judgetest.Gemini, judgetest.Reply{FinishReason: "BLOCKLIST"}), class: judge.ClassContentFilter, status: 200},
	{name: "gemini spii", reply: only(judgetest.Gemini, judgetest.Reply{FinishReason: "SPII"}), class: judge.ClassContentFilter, status: 200},
	{name: "truncated", reply: always(judgetest.Reply{Truncated: true, Text: `{"score":`}), class: judge.ClassTruncated, status: 200},
	{name: "empty answer", reply: always(judgetest.Reply{}), class: judge.ClassInvalidResponse, status: 200},
	{name: "not json", reply: always(judgetest.Reply{Body: "this is not json"}), class: judge.ClassInvalidResponse, status: 200},
	{name: "openai no choices", reply: only(judgetest.OpenAI, judgetest.Reply{Body: `{"id":"x","object":"chat.completion","model":"m","choices":[]}`}), class: judge.ClassInvalidResponse, status: 200},
	{name: "gemini no candidates", reply: only(judgetest.Gemini, judgetest.Reply{Body: `{"candidates":[],"modelVersion":"m"}`}), class: judge.ClassInvalidResponse, status: 200},
	{name: "anthropic no content", reply: only(judgetest.Anthropic, judgetest.Reply{Body: `{"id":"x","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":0}}`}), class: judge.ClassInvalidResponse, status: 200},
	{name: "body over 1 MiB", reply: always(judgetest.Reply{Body: `{"x":"` + strings.Repeat("a", provider.MaxBodyBytes) + `"}`}), class: judge.ClassInvalidResponse},
	{name: "error body over 1 MiB", reply: always(judgetest.Reply{Status: 500, Body: strings.Repeat("e", provider.MaxBodyBytes+1)}), class: judge.ClassInvalidResponse},
}

func TestFailureClasses(t *testing.T) {
	for _, tg := range targets {
		for _, fc := range failureCases {
			reply, ok := fc.reply(tg.wire)
			if !ok {
				continue
			}
			t.Run(tg.name+"/"+fc.name, func(t *testing.T) {
				srv := judgetest.New(t)
				srv.Enqueue(tg.wire, reply)
				p := newProvider(t, srv, tg, nil)
				resp, err := p.Complete(t.Context(), &judge.Request{System: "s", Prompt: "p"})
				if err == nil {
					t.Fatalf("no error, response %+v", resp)
				}
				je := asJudgeError(t, err)
				if je.Class != fc.class {
					t.Errorf("class %s, want %s (%v)", je.Class, fc.class, err)
				}
				if fc.status != 0 && je.Status != fc.status {
					t.Errorf("status %d, want %d", je.Status, fc.status)
				}
				switch {
				case fc.retryAfter < 0:
					if je.RetryAfter < 59*time.Minute || je.RetryAfter > time.Hour {
						t.Errorf("retry after %v, want about 1h", je.RetryAfter)
					}
				case je.RetryAfter != fc.retryAfter:
					t.Errorf("retry after %v, want %v", je.RetryAfter, fc.retryAfter)
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("%d requests, want exactly 1 (SDK retries must be off)", n)
				}
				if strings.Contains(err.Error(), testKey) {
					t.Errorf("error shows the key: %v", err)
				}
			})
		}
	}
}

func TestBodyJustUnderCap(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			text := strings.Repeat("b", provider.MaxBodyBytes-4096)
			srv.Enqueue(tg.wire, judgetest.Text(text))
			p := newProvider(t, srv, tg, nil)
			resp, err := p.Complete(t.Context(), &judge.Request{Prompt: "p"})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != text {
				t.Errorf("answer of %d bytes, want %d", len(resp.Text), len(text))
			}
		})
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.SetDefault(tg.wire, judgetest.Reply{Text: "late", Delay: time.Minute})
			p := newProvider(t, srv, tg, nil)

			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			_, err := p.Complete(ctx, &judge.Request{Prompt: "p"})
			if je := asJudgeError(t, err); je.Class != judge.ClassTimeout || !je.Retryable() {
				t.Errorf("deadline: class %s, want timeout (%v)", je.Class, err)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("deadline error %v does not wrap context.DeadlineExceeded", err)
			}

			ctx, cancel = context.WithCancel(t.Context())
			go func() {
				for len(srv.Requests()) < 2 {
					time.Sleep(time.Millisecond)
				}
				cancel()
			}()
			_, err = p.Complete(ctx, &judge.Request{Prompt: "p"})
			if je := asJudgeError(t, err); je.Class != judge.ClassCanceled || je.Retryable() {
				t.Errorf("cancel: class %s, want canceled (%v)", je.Class, err)
			}
			if !errors.Is(err, context.Canceled) {
				t.Errorf("cancel error %v does not wrap context.Canceled", err)
			}
		})
	}
}

func TestTransportError(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			cfg := tg.config(srv)
			cfg.BaseURL = "http://127.0.0.1:1" + strings.TrimPrefix(cfg.BaseURL, srv.URL())
			p, err := provider.New(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Complete(t.Context(), &judge.Request{Prompt: "p"})
			je := asJudgeError(t, err)
			if je.Class != judge.ClassTransport || je.Status != 0 || !je.Retryable() {
				t.Errorf("class %s status %d, want transport 0 (%v)", je.Class, je.Status, err)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Errorf("error shows the key: %v", err)
			}
		})
	}
}

func TestKeyNeverEchoed(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			// A server that quotes the credential back in its error.
			srv.Enqueue(tg.wire,
				judgetest.Reply{Status: 401, ErrorMessage: "Incorrect API key provided: " + testKey},
				judgetest.Reply{Status: 400, Body: "bad key " + testKey},
			)
			p := newProvider(t, srv, tg, nil)
			for range 2 {
				_, err := p.Complete(t.Context(), &judge.Request{Prompt: "p"})
				if err == nil {
					t.Fatal("no error")
				}
				for _, s := range []string{err.Error(), fmt.Sprintf("%v %+v %#v", err, err, err)} {
					if strings.Contains(s, testKey) {
						t.Errorf("error shows the key: %s", s)
					}
				}
			}
			for _, r := range srv.Requests() {
				if strings.Contains(string(r.Body), testKey) || strings.Contains(r.RawQuery, testKey) {
					t.Errorf("key in request body or query: %s?%s", r.Path, r.RawQuery)
				}
			}
		})
	}
}

func TestConfigNeverShowsKey(t *testing.T) {
	cfg := provider.Config{Provider: provider.Vertex, Model: "m", APIKey: testKey, AccessToken: testKey + "-token", Project: "p", Location: "l"}
	var logs strings.Builder
	slog.New(slog.NewTextHandler(&logs, nil)).Info("judge", "config", cfg, "key", cfg.APIKey)
	outputs := []string{
		cfg.String(), fmt.Sprint(cfg), fmt.Sprintf("%v|%+v|%#v|%s|%q", cfg, cfg, cfg, cfg, cfg),
		fmt.Sprintf("%v %s %q %x %#v", cfg.APIKey, cfg.APIKey, cfg.APIKey, cfg.APIKey, cfg.APIKey),
		logs.String(),
	}
	for _, s := range outputs {
		if strings.Contains(s, testKey) || strings.Contains(s, fmt.Sprintf("%x", testKey)) {
			t.Errorf("output shows the key: %s", s)
		}
	}
	if !strings.Contains(cfg.String(), "api_key=[REDACTED]") {
		t.Errorf("String() = %q, want the key marked redacted", cfg.String())
	}
	bad := cfg
	bad.Model = ""
	bad.Temperature = 5
	if err := bad.Validate(); err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("Validate error %v", err)
	}
	if _, err := provider.New(bad, nil); err == nil || strings.Contains(err.Error(), testKey) {
		t.Errorf("New error %v", err)
	}
}

func TestRequestsWaitForNothing(t *testing.T) {
	// The provider sends at once: SDK retries and waits are off, so even
	// a 429 with a long retry-after returns immediately with the hint.
	srv := judgetest.New(t)
	srv.Enqueue(judgetest.Anthropic, judgetest.RetryAfter(time.Hour))
	p := newProvider(t, srv, targets[4], nil)
	_, err := p.Complete(t.Context(), &judge.Request{Prompt: "p"})
	je := asJudgeError(t, err)
	if je.RetryAfter != time.Hour || je.Class != judge.ClassRateLimited {
		t.Errorf("got %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
	_ = http.StatusOK
}

func TestHTTPClientTimeout(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.SetDefault(tg.wire, judgetest.Reply{Text: "late", Delay: time.Minute})
			hc := srv.Client()
			hc.Timeout = 50 * time.Millisecond
			p, err := provider.New(tg.config(srv), hc)
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Complete(t.Context(), &judge.Request{Prompt: "p"})
			if je := asJudgeError(t, err); je.Class != judge.ClassTimeout {
				t.Errorf("class %s, want timeout (%v)", je.Class, err)
			}
		})
	}
}

func TestRequestNotSentIsBadRequest(t *testing.T) {
	// The Anthropic SDK refuses non-streaming calls whose output cap
	// would take longer than ten minutes; nothing reaches the server and
	// a retry cannot help.
	srv := judgetest.New(t)
	p := newProvider(t, srv, targets[4], nil)
	_, err := p.Complete(t.Context(), &judge.Request{Prompt: "p", MaxOutputTokens: 64000})
	je := asJudgeError(t, err)
	if je.Class != judge.ClassBadRequest || je.Retryable() {
		t.Errorf("class %s, want bad_request (%v)", je.Class, err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}
