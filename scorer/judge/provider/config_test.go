package provider

import (
	"net/http"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
)

func TestValidate(t *testing.T) {
	off := false
	tests := []struct {
		name string
		cfg  Config
		want []string // substrings of the error; none means valid
	}{
		{"openai", Config{Provider: OpenAI, Model: "gpt-4o-mini", APIKey: "k"}, nil},
		{"compatible server without key", Config{Provider: OpenAI, Model: "llama3", BaseURL: "http://localhost:11434/v1", StructuredOutput: &off, MaxTokensField: MaxTokens}, nil},
		{"azure", Config{Provider: AzureOpenAI, Model: "gpt-4o", BaseURL: "https://r.openai.azure.com", APIVersion: "2024-10-21", APIKey: "k"}, nil},
		{"azure entra header", Config{Provider: AzureOpenAI, Model: "gpt-4o", BaseURL: "https://r.openai.azure.com", APIVersion: "2024-10-21", Headers: configopaque.Map{"Authorization": "Bearer t"}}, nil},
		{"gemini", Config{Provider: Gemini, Model: "gemini-2.5-flash", APIKey: "k"}, nil},
		{"vertex", Config{Provider: Vertex, Model: "gemini-2.5-flash", Project: "p", Location: "us-central1"}, nil},
		{"vertex express", Config{Provider: Vertex, Model: "gemini-2.5-flash", APIKey: "k"}, nil},
		{"anthropic", Config{Provider: Anthropic, Model: "claude-sonnet-4-5", APIKey: "k", MaxOutputTokens: 2048, Temperature: 1}, nil},
		{"empty", Config{}, []string{"provider: required", "model: required"}},
		{"unknown provider", Config{Provider: "bedrock", Model: "m"}, []string{`provider: must be one of`, `"bedrock"`}},
		{"openai no key", Config{Provider: OpenAI, Model: "m"}, []string{"api_key: required"}},
		{"bad base url", Config{Provider: OpenAI, Model: "m", APIKey: "k", BaseURL: "ftp://x"}, []string{"base_url: scheme"}},
		{"base url no host", Config{Provider: OpenAI, Model: "m", APIKey: "k", BaseURL: "http://"}, []string{"base_url: host required"}},
		{"base url credentials", Config{Provider: OpenAI, Model: "m", BaseURL: "https://u:secretpw@x"}, []string{"base_url: must not carry credentials"}},
		{"azure missing", Config{Provider: AzureOpenAI, Model: "m"}, []string{"base_url: required", "api_version: required", "api_key: required"}},
		{"gemini no key", Config{Provider: Gemini, Model: "m"}, []string{"api_key: required"}},
		{"gemini project", Config{Provider: Gemini, Model: "m", APIKey: "k", Project: "p"}, []string{"project: project and location are only used by vertex"}},
		{"vertex missing", Config{Provider: Vertex, Model: "m"}, []string{"project: required", "location: required"}},
		{"anthropic no key", Config{Provider: Anthropic, Model: "m"}, []string{"api_key: required"}},
		{"negative tokens", Config{Provider: Gemini, Model: "m", APIKey: "k", MaxOutputTokens: -1}, []string{"max_output_tokens: must not be negative"}},
		{"temperature", Config{Provider: Gemini, Model: "m", APIKey: "k", Temperature: 2.5}, []string{"temperature: must be between 0 and 2"}},
		{"max tokens field", Config{Provider: OpenAI, Model: "m", APIKey: "k", MaxTokensField: "tokens"}, []string{"max_tokens_field: must be"}},
		{"bad header", Config{Provider: OpenAI, Model: "m", APIKey: "k", Headers: configopaque.Map{"Bad Header": "v"}}, []string{`headers: invalid header name "Bad Header"`}},
		{"header value line break", Config{Provider: OpenAI, Model: "m", APIKey: "k", Headers: configopaque.Map{"X-A": "v\r\nX-B: w"}}, []string{`headers: value of "X-A"`}},
		{"access token off vertex", Config{Provider: Anthropic, Model: "m", APIKey: "k", AccessToken: "t"}, []string{"access_token: only used by vertex"}},
		{"vertex publisher model", Config{Provider: Vertex, Model: "google/gemini-2.5-flash", APIKey: "k"}, nil},
		{"gemini model path escape", Config{Provider: Gemini, Model: "../files", APIKey: "k"}, []string{"model: must not contain"}},
		{"vertex model query", Config{Provider: Vertex, Model: "m?alt=sse", APIKey: "k"}, []string{"model: must not contain"}},
		{"api version off azure", Config{Provider: OpenAI, Model: "m", APIKey: "k", APIVersion: "v"}, []string{"api_version: only used by azure_openai"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate passed, want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "secretpw") {
				t.Errorf("error shows a credential: %v", err)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	c := Config{Provider: AzureOpenAI, Model: "gpt-4o"}.withDefaults()
	if c.MaxOutputTokens != DefaultMaxOutputTokens || c.MaxTokensField != MaxCompletionTokens || c.Deployment != "gpt-4o" || !c.Structured() || c.Temperature != 0 {
		t.Errorf("defaults %+v", c)
	}
	off := false
	if (Config{StructuredOutput: &off}).Structured() {
		t.Error("structured_output false ignored")
	}
}

func TestNewProviders(t *testing.T) {
	for _, cfg := range []Config{
		{Provider: OpenAI, Model: "m", APIKey: "k"},
		{Provider: AzureOpenAI, Model: "m", BaseURL: "https://r.openai.azure.com", APIVersion: "v", APIKey: "k"},
		{Provider: Gemini, Model: "m", APIKey: "k"},
		{Provider: Vertex, Model: "m", Project: "p", Location: "l", AccessToken: "t"},
		{Provider: Anthropic, Model: "m", APIKey: "k"},
	} {
		p, err := New(cfg, &http.Client{})
		if err != nil {
			t.Fatalf("%s: %v", cfg.Provider, err)
		}
		want := map[string]string{OpenAI: KindOpenAI, AzureOpenAI: KindOpenAI, Gemini: KindGemini, Vertex: KindGemini, Anthropic: KindAnthropic}[cfg.Provider]
		if p.Kind() != want || p.Model() != "m" {
			t.Errorf("%s: Kind %q Model %q", cfg.Provider, p.Kind(), p.Model())
		}
	}
}

func TestStringHidesURLCredentials(t *testing.T) {
	c := Config{Provider: OpenAI, Model: "m", BaseURL: "https://u:pw@proxy.example/v1?key=qsecret#frag"}
	got := c.String()
	if strings.Contains(got, "qsecret") || strings.Contains(got, "pw") || !strings.Contains(got, "https://proxy.example/v1") {
		t.Errorf("String() = %q", got)
	}
}

func TestSecrets(t *testing.T) {
	c := Config{
		APIKey: "k1", AccessToken: "t1",
		BaseURL: "https://proxy.example/v1?key=query-secret-1&v=1",
		Headers: configopaque.Map{"Authorization": "Bearer h1", "X-Api-Key": "h2", "X-Team": "evals"},
	}
	got := strings.Join(c.secrets(), ",")
	for _, want := range []string{"k1", "t1", "query-secret-1", "Bearer h1", "h2"} {
		if !strings.Contains(got, want) {
			t.Errorf("secrets %q lack %q", got, want)
		}
	}
	if strings.Contains(got, "evals") {
		t.Errorf("secrets %q hold a plain header", got)
	}
	cm := common{secrets: c.secrets()}
	if r := cm.redact("dial https://proxy.example/v1?key=query-secret-1: refused, key k1"); strings.Contains(r, "query-secret-1") || strings.Contains(r, "k1") {
		t.Errorf("redact left a secret: %q", r)
	}
	if r := cm.redact(strings.Repeat("é", 400)); len(r) > maxDetail+len("…") || !strings.HasSuffix(r, "…") {
		t.Errorf("redact did not cap: %d bytes", len(r))
	}
}
