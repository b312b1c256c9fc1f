package provider_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

// cannedTransport answers every request with one status, header and body,
// without a network.
type cannedTransport struct {
	status int
	header http.Header
	body   []byte
}

func (c *cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	h := c.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("Content-Type", "application/json")
	return &http.Response{
		Status:        strconv.Itoa(c.status) + " " + http.StatusText(c.status),
		StatusCode:    c.status,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(c.body)),
		ContentLength: int64(len(c.body)),
		Request:       req,
	}, nil
}

// fuzzSeeds are response bodies of every format, valid and broken.
var fuzzSeeds = []string{
	`{"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"score\":1}","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`,
	`{"choices":[{"message":{"content":null,"refusal":"no"},"finish_reason":"stop"}]}`,
	`{"choices":[{"message":{"content":"x"},"finish_reason":"length"}]}`,
	`{"choices":[]}`,
	`{"error":{"message":"m","type":"insufficient_quota","code":"insufficient_quota"}}`,
	`{"candidates":[{"content":{"role":"model","parts":[{"text":"ok"},{"text":"t","thought":true}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":2},"modelVersion":"g"}`,
	`{"promptFeedback":{"blockReason":"SAFETY"}}`,
	`{"candidates":[null]}`,
	`{"candidates":[{"finishReason":"RECITATION"}]}`,
	`{"error":{"code":429,"message":"PerDay","status":"RESOURCE_EXHAUSTED","details":[{"@type":"x"}]}}`,
	`{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"tool_use","id":"t","name":"verdict","input":{"score":1}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}`,
	`{"content":[{"type":"text","text":"hi"}],"stop_reason":"refusal"}`,
	`{"content":[{"type":"tool_use","name":"verdict","input":null}]}`,
	`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	`null`, `[]`, `""`, `{}`, `{"choices":{}}`, `{"candidates":"x"}`, `{"content":7}`,
}

func fuzzProvider(f *testing.F, name string) {
	for _, s := range fuzzSeeds {
		f.Add(200, s, false)
		f.Add(429, s, true)
	}
	f.Fuzz(func(t *testing.T, status int, body string, structured bool) {
		if status < 100 || status > 599 {
			status = 200
		}
		cfg := provider.Config{Provider: name, Model: "m", APIKey: testKey, BaseURL: "http://judge.invalid"}
		switch name {
		case provider.AzureOpenAI:
			cfg.APIVersion = "v"
		case provider.Vertex:
			cfg.APIKey, cfg.AccessToken, cfg.Project, cfg.Location = "", testKey, "p", "l"
		}
		hc := &http.Client{Transport: &cannedTransport{status: status, header: http.Header{"Retry-After": {body}}, body: []byte(body)}}
		p, err := provider.New(cfg, hc)
		if err != nil {
			t.Fatal(err)
		}
		req := &judge.Request{Prompt: "p"}
		if structured {
			req.Schema = verdictSchema
		}
		resp, err := p.Complete(t.Context(), req)
		if err != nil {
			je, ok := err.(*judge.Error)
			if !ok || je.Class == "" {
				t.Fatalf("unclassified error %T %v", err, err)
			}
			if je.RetryAfter < 0 {
				t.Fatalf("negative retry hint %v", je.RetryAfter)
			}
			if status >= 400 && je.Class != judge.ClassInvalidResponse && je.Status != status {
				t.Fatalf("status %d reported as %d (%v)", status, je.Status, err)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Fatalf("error shows the key: %v", err)
			}
			return
		}
		if status >= 300 {
			t.Fatalf("HTTP %d answered %+v", status, resp)
		}
		if strings.TrimSpace(resp.Text) == "" {
			t.Fatalf("empty answer accepted: %+v", resp)
		}
		if resp.Provider != p.Kind() || resp.InputTokens < 0 || resp.OutputTokens < 0 {
			t.Fatalf("bad response %+v", resp)
		}
	})
}

func FuzzOpenAIResponse(f *testing.F)    { fuzzProvider(f, provider.OpenAI) }
func FuzzGeminiResponse(f *testing.F)    { fuzzProvider(f, provider.Gemini) }
func FuzzVertexResponse(f *testing.F)    { fuzzProvider(f, provider.Vertex) }
func FuzzAnthropicResponse(f *testing.F) { fuzzProvider(f, provider.Anthropic) }
