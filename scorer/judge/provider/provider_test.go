package provider_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

var verdictSchema = &judge.Schema{
	Name: "verdict",
	JSON: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"score":  map[string]any{"type": "integer"},
			"reason": map[string]any{"type": "string"},
		},
		"required":             []any{"score", "reason"},
		"additionalProperties": false,
	},
}

func TestCompleteText(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.Enqueue(tg.wire, judgetest.Reply{Text: "The answer is 4.", Model: "judge-model-1-0613", InputTokens: 123, OutputTokens: 45})
			p := newProvider(t, srv, tg, nil)
			resp, err := p.Complete(t.Context(), &judge.Request{System: "You are a strict grader.", Prompt: "Grade: 2+2=4"})
			if err != nil {
				t.Fatal(err)
			}
			want := judge.Response{Text: "The answer is 4.", Provider: tg.wireKind(), Model: "judge-model-1-0613", InputTokens: 123, OutputTokens: 45}
			got := *resp
			if got.Latency <= 0 {
				t.Errorf("Latency = %v, want > 0", got.Latency)
			}
			got.Latency = 0
			if got != want {
				t.Errorf("response = %+v, want %+v", got, want)
			}
			if p.Kind() != tg.wireKind() || p.Model() != "judge-model-1" {
				t.Errorf("Kind, Model = %q, %q", p.Kind(), p.Model())
			}

			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Route != tg.route || r.DecodeError != "" {
				t.Errorf("route %q decode error %q", r.Route, r.DecodeError)
			}
			if r.Model != "judge-model-1" || r.System != "You are a strict grader." || r.User != "Grade: 2+2=4" {
				t.Errorf("decoded model %q system %q user %q", r.Model, r.System, r.User)
			}
			if r.MaxTokens != provider.DefaultMaxOutputTokens {
				t.Errorf("max tokens %d (%s), want %d", r.MaxTokens, r.MaxTokensField, provider.DefaultMaxOutputTokens)
			}
			if r.Temperature == nil || *r.Temperature != 0 {
				t.Errorf("temperature %v, want 0 sent", r.Temperature)
			}
			if r.HasSchema() {
				t.Errorf("schema %v sent without a request schema", r.Schema)
			}
			name, value := tg.authHeader()
			if got := r.Header.Get(name); got != value {
				t.Errorf("%s header = %q, want %q", name, got, value)
			}
			if got := r.Header.Get("X-Judge-Test"); got != "on" {
				t.Errorf("extra header = %q", got)
			}
			switch tg.name {
			case provider.AzureOpenAI:
				if r.Deployment != "judge-model-1" || !strings.Contains(r.RawQuery, "api-version=2024-10-21") {
					t.Errorf("azure deployment %q query %q", r.Deployment, r.RawQuery)
				}
				if r.Header.Get("Authorization") != "" {
					t.Error("azure request carries an Authorization header")
				}
			case provider.Vertex:
				if r.Project != "proj-1" || r.Location != "europe-west4" || r.PathModel != "judge-model-1" {
					t.Errorf("vertex path %s", r.Path)
				}
			}
		})
	}
}

// wireKind is the Kind a target's provider reports.
func (tg target) wireKind() string {
	switch tg.wire {
	case judgetest.Gemini:
		return provider.KindGemini
	case judgetest.Anthropic:
		return provider.KindAnthropic
	}
	return provider.KindOpenAI
}

func TestCompleteStructured(t *testing.T) {
	const answer = `{"score":4,"reason":"correct"}`
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.Enqueue(tg.wire, judgetest.JSON(answer))
			p := newProvider(t, srv, tg, nil)
			resp, err := p.Complete(t.Context(), &judge.Request{System: "sys", Prompt: "grade", Schema: verdictSchema, MaxOutputTokens: 77})
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal([]byte(resp.Text), &got); err != nil {
				t.Fatalf("answer %q: %v", resp.Text, err)
			}
			_ = json.Unmarshal([]byte(answer), &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("answer %s, want %s", resp.Text, answer)
			}
			r := srv.Requests()[0]
			if !reflect.DeepEqual(normalize(r.Schema), normalize(verdictSchema.JSON)) {
				t.Errorf("schema sent %v, want %v", r.Schema, verdictSchema.JSON)
			}
			if r.MaxTokens != 77 {
				t.Errorf("max tokens %d, want the request's 77", r.MaxTokens)
			}
			switch tg.wire {
			case judgetest.OpenAI:
				if !r.Strict || r.SchemaName != "verdict" {
					t.Errorf("strict %v name %q", r.Strict, r.SchemaName)
				}
			case judgetest.Gemini:
				if r.ResponseMIMEType != "application/json" {
					t.Errorf("responseMimeType %q", r.ResponseMIMEType)
				}
			case judgetest.Anthropic:
				if r.SchemaName != "verdict" {
					t.Errorf("forced tool %q", r.SchemaName)
				}
			}
			if strings.Contains(r.System, "JSON Schema") {
				t.Errorf("schema put in the prompt although structured output is on: %q", r.System)
			}
		})
	}
}

// normalize round-trips v through JSON so schemas compare by value.
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestStructuredOutputOff(t *testing.T) {
	off := false
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.Enqueue(tg.wire, judgetest.Text(`{"score":1,"reason":"x"}`))
			p := newProvider(t, srv, tg, func(c *provider.Config) { c.StructuredOutput = &off })
			resp, err := p.Complete(t.Context(), &judge.Request{System: "sys", Prompt: "grade", Schema: verdictSchema})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != `{"score":1,"reason":"x"}` {
				t.Errorf("text %q", resp.Text)
			}
			r := srv.Requests()[0]
			if r.HasSchema() {
				t.Errorf("schema sent with structured_output false: %v", r.Schema)
			}
			if !strings.HasPrefix(r.System, "sys") || !strings.Contains(r.System, `"additionalProperties":false`) {
				t.Errorf("system prompt lacks the schema: %q", r.System)
			}
		})
	}
}

func TestOpenAIMaxTokensField(t *testing.T) {
	srv := judgetest.New(t)
	srv.SetDefault(judgetest.OpenAI, judgetest.Text("ok"))
	tg := targets[0]
	for _, tc := range []struct{ field, want string }{
		{"", "max_completion_tokens"},
		{provider.MaxCompletionTokens, "max_completion_tokens"},
		{provider.MaxTokens, "max_tokens"},
	} {
		p := newProvider(t, srv, tg, func(c *provider.Config) { c.MaxTokensField = tc.field; c.MaxOutputTokens = 300; c.Temperature = 0.5 })
		if _, err := p.Complete(t.Context(), &judge.Request{Prompt: "p"}); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		r := reqs[len(reqs)-1]
		if r.MaxTokensField != tc.want || r.MaxTokens != 300 {
			t.Errorf("field %q: sent %s=%d, want %s=300", tc.field, r.MaxTokensField, r.MaxTokens, tc.want)
		}
		if r.Temperature == nil || *r.Temperature != 0.5 {
			t.Errorf("temperature %v, want 0.5", r.Temperature)
		}
	}
}

func TestOpenAICompatibleWithoutKey(t *testing.T) {
	srv := judgetest.New(t)
	srv.Enqueue(judgetest.OpenAI, judgetest.Text("ok"))
	p, err := provider.New(provider.Config{Provider: provider.OpenAI, Model: "llama3", BaseURL: srv.OpenAIBaseURL()}, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Complete(t.Context(), &judge.Request{Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "" {
		t.Errorf("Authorization %q sent without a key", got)
	}
}

// TestOmitTemperature: with omit_temperature no provider sends a
// temperature (reasoning models accept only their default).
func TestOmitTemperature(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.Enqueue(tg.wire, judgetest.Text("ok"))
			p := newProvider(t, srv, tg, func(c *provider.Config) { c.OmitTemperature = true })
			if _, err := p.Complete(t.Context(), &judge.Request{Prompt: "x"}); err != nil {
				t.Fatal(err)
			}
			if r := srv.Requests()[0]; r.Temperature != nil {
				t.Errorf("temperature %v sent", *r.Temperature)
			}
		})
	}
}

// TestRequestTemperature: a request's own temperature (sampled votes)
// reaches every provider over the wire in place of the configured one.
func TestRequestTemperature(t *testing.T) {
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			srv := judgetest.New(t)
			srv.SetDefault(tg.wire, judgetest.Text("ok"))
			p := newProvider(t, srv, tg, nil)
			temp := 0.75
			for _, req := range []*judge.Request{{Prompt: "x"}, {Prompt: "x", Temperature: &temp}} {
				if _, err := p.Complete(t.Context(), req); err != nil {
					t.Fatal(err)
				}
			}
			reqs := srv.Requests()
			if r := reqs[0]; r.Temperature == nil || *r.Temperature != 0 {
				t.Errorf("configured temperature: sent %v, want 0", r.Temperature)
			}
			if r := reqs[1]; r.Temperature == nil || *r.Temperature != temp {
				t.Errorf("request temperature: sent %v, want %v", r.Temperature, temp)
			}
		})
	}
}
