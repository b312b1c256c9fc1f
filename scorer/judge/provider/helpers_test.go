package provider_test

import (
	"net/http"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgetest"
	"github.com/evalsidecar/evalsidecar/scorer/judge/provider"
)

// testKey is the credential every test config uses; no error may show it.
const testKey = "sk-test-4f1c9e2a-SECRET"

// target is one provider configuration pointed at a judgetest server.
type target struct {
	name  string // provider config name
	wire  string // judgetest wire format
	route string // judgetest route
}

var targets = []target{
	{provider.OpenAI, judgetest.OpenAI, judgetest.RouteOpenAI},
	{provider.AzureOpenAI, judgetest.OpenAI, judgetest.RouteAzure},
	{provider.Gemini, judgetest.Gemini, judgetest.RouteGemini},
	{provider.Vertex, judgetest.Gemini, judgetest.RouteVertex},
	{provider.Anthropic, judgetest.Anthropic, judgetest.RouteAnthropic},
}

// config returns tg's config against srv.
func (tg target) config(srv *judgetest.Server) provider.Config {
	cfg := provider.Config{
		Provider: tg.name,
		Model:    "judge-model-1",
		APIKey:   testKey,
		Headers:  configopaque.Map{"X-Judge-Test": "on"},
	}
	switch tg.name {
	case provider.OpenAI:
		cfg.BaseURL = srv.OpenAIBaseURL()
	case provider.AzureOpenAI:
		cfg.BaseURL = srv.URL()
		cfg.APIVersion = "2024-10-21"
	case provider.Gemini:
		cfg.BaseURL = srv.URL()
	case provider.Vertex:
		cfg.BaseURL = srv.URL()
		cfg.APIKey = ""
		cfg.AccessToken = testKey
		cfg.Project = "proj-1"
		cfg.Location = "europe-west4"
	case provider.Anthropic:
		cfg.BaseURL = srv.URL()
	}
	return cfg
}

// newProvider builds tg's provider against srv, with mod applied to the
// config.
func newProvider(t *testing.T, srv *judgetest.Server, tg target, mod func(*provider.Config)) judge.Provider {
	t.Helper()
	cfg := tg.config(srv)
	if mod != nil {
		mod(&cfg)
	}
	p, err := provider.New(cfg, srv.Client())
	if err != nil {
		t.Fatalf("New(%s): %v", tg.name, err)
	}
	return p
}

// authHeader returns the credential header tg sends and its expected
// value.
func (tg target) authHeader() (string, string) {
	switch tg.name {
	case provider.AzureOpenAI:
		return "Api-Key", testKey
	case provider.Gemini:
		return "X-Goog-Api-Key", testKey
	case provider.Anthropic:
		return "X-Api-Key", testKey
	}
	return "Authorization", "Bearer " + testKey
}

// asJudgeError returns err as a *judge.Error or fails the test.
func asJudgeError(t *testing.T, err error) *judge.Error {
	t.Helper()
	je, ok := err.(*judge.Error)
	if !ok {
		t.Fatalf("error %T %v, want *judge.Error", err, err)
	}
	return je
}

// header builds an http.Header from name, value pairs.
func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}
