// Package provider implements judge.Provider for the three judge wire
// formats: OpenAI-compatible chat completions (OpenAI, Azure OpenAI, vLLM,
// Ollama, llama.cpp, LiteLLM), Gemini generateContent (Gemini API and
// Vertex AI) and Anthropic Messages. Each is one JSON POST with net/http,
// its request and response held in small structs of the fields the judge
// sends and reads.
//
// Every provider sends one HTTP request per Complete call and never
// retries, because retries belong to judge.Client. Response bodies are
// capped at MaxBodyBytes, and every failure is a classified *judge.Error
// carrying the provider's retry hint.
package provider

import (
	"cmp"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/http/httpguts"

	"github.com/evalsidecar/evalsidecar/internal/configopaque"
	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Provider names accepted in Config.Provider.
const (
	OpenAI      = "openai"
	AzureOpenAI = "azure_openai"
	Gemini      = "gemini"
	Vertex      = "vertex"
	Anthropic   = "anthropic"
)

// Wire formats reported by Provider.Kind and judge.Response.Provider.
const (
	KindOpenAI    = "openai"
	KindGemini    = "gemini"
	KindAnthropic = "anthropic"
)

// Values of Config.MaxTokensField.
const (
	MaxCompletionTokens = "max_completion_tokens"
	MaxTokens           = "max_tokens"
)

// DefaultMaxOutputTokens is the answer cap when neither the request nor
// the config sets one.
const DefaultMaxOutputTokens = 1024

// redacted marks a credential removed from a message.
const redacted = configopaque.Redacted

// Config configures one judge model. The zero values of MaxOutputTokens,
// Temperature and StructuredOutput mean 1024, 0 and true.
type Config struct {
	// Provider is openai, azure_openai, gemini, vertex or anthropic.
	Provider string `yaml:"provider"`
	// Model is the model name (for azure_openai, the deployment unless
	// Deployment is set).
	Model string `yaml:"model"`
	// BaseURL overrides the provider's endpoint: an OpenAI-compatible
	// server (vLLM, Ollama, llama.cpp, LiteLLM), the Azure resource
	// endpoint (https://NAME.openai.azure.com), a proxy or a test server.
	BaseURL string `yaml:"base_url"`
	// APIKey authenticates the requests. It never appears in errors, logs
	// or String output.
	APIKey configopaque.String `yaml:"api_key"`
	// Headers are extra headers sent with every request; their values
	// never appear in errors, logs or String output.
	Headers configopaque.Map `yaml:"headers"`
	// APIVersion is the Azure OpenAI api-version query parameter.
	APIVersion string `yaml:"api_version"`
	// Deployment is the Azure OpenAI deployment; default Model.
	Deployment string `yaml:"deployment"`
	// Project and Location select the Vertex AI project and region.
	Project  string `yaml:"project"`
	Location string `yaml:"location"`
	// AccessToken is an OAuth access token for Vertex AI. When neither it
	// nor APIKey is set, Vertex AI uses Application Default Credentials.
	AccessToken configopaque.String `yaml:"access_token"`
	// MaxOutputTokens caps answers when the request does not; default 1024.
	MaxOutputTokens int `yaml:"max_output_tokens"`
	// Temperature is the sampling temperature; default 0.
	Temperature float64 `yaml:"temperature"`
	// OmitTemperature leaves the temperature out of requests, for models
	// that accept only their default (OpenAI reasoning models).
	OmitTemperature bool `yaml:"omit_temperature"`
	// StructuredOutput asks the provider for schema-constrained output
	// when a request has a schema; default true. Set it to false for
	// OpenAI-compatible servers without response_format json_schema: the
	// schema is then put in the system prompt and the answer parsed as is.
	StructuredOutput *bool `yaml:"structured_output"`
	// MaxTokensField is the OpenAI request field carrying the cap:
	// max_completion_tokens (default) or max_tokens for older compatible
	// servers.
	MaxTokensField string `yaml:"max_tokens_field"`
}

// String describes the config without its credentials.
func (c Config) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider=%s model=%s", c.Provider, c.Model)
	if c.BaseURL != "" {
		fmt.Fprintf(&b, " base_url=%s", safeURL(c.BaseURL))
	}
	if c.APIKey != "" {
		b.WriteString(" api_key=" + redacted)
	}
	if c.AccessToken != "" {
		b.WriteString(" access_token=" + redacted)
	}
	if len(c.Headers) > 0 {
		fmt.Fprintf(&b, " headers=%s", strings.Join(slices.Sorted(maps.Keys(c.Headers)), ","))
	}
	return b.String()
}

// GoString is String, so %#v does not print credentials either.
func (c Config) GoString() string { return c.String() }

// LogValue logs the config without its credentials.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Structured reports whether structured output is on.
func (c Config) Structured() bool { return c.StructuredOutput == nil || *c.StructuredOutput }

// withDefaults returns c with its defaults applied.
func (c Config) withDefaults() Config {
	c.MaxOutputTokens = cmp.Or(c.MaxOutputTokens, DefaultMaxOutputTokens)
	c.MaxTokensField = cmp.Or(c.MaxTokensField, MaxCompletionTokens)
	if c.Provider == AzureOpenAI && c.Deployment == "" {
		c.Deployment = c.Model
	}
	return c
}

// Validate checks the config. Each error names the offending key, for
// example "model: required".
func (c Config) Validate() error {
	providers := []string{OpenAI, AzureOpenAI, Gemini, Vertex, Anthropic}
	google := c.Provider == Gemini || c.Provider == Vertex
	noKey := c.APIKey == ""
	var v errs.Checks
	v.Check(c.Provider == "", "provider: required")
	v.Check(c.Provider != "" && !slices.Contains(providers, c.Provider), "provider: must be one of %s (got %q)", strings.Join(providers, ", "), c.Provider)
	v.Check(strings.TrimSpace(c.Model) == "", "model: required")
	// The model is a path in the request URL.
	v.Check(google && (strings.ContainsAny(c.Model, "?&") || strings.Contains(c.Model, "..")), "model: must not contain ?, & or ..")
	v.Check(c.BaseURL != "" && baseURLProblem(c.BaseURL) != "", "base_url: %s", baseURLProblem(c.BaseURL))
	for k, val := range c.Headers {
		v.Check(!httpguts.ValidHeaderFieldName(k), "headers: invalid header name %q", k)
		v.Check(strings.ContainsAny(string(val), "\r\n\x00"), "headers: value of %q holds a line break or NUL", k)
	}
	v.Check(c.MaxOutputTokens < 0, "max_output_tokens: must not be negative")
	v.Check(c.Temperature < 0 || c.Temperature > 2, "temperature: must be between 0 and 2")
	v.Check(!slices.Contains([]string{"", MaxCompletionTokens, MaxTokens}, c.MaxTokensField), "max_tokens_field: must be %s or %s", MaxCompletionTokens, MaxTokens)
	v.Check(c.Provider == OpenAI && c.BaseURL == "" && noKey, "api_key: required for the OpenAI API (set base_url for a compatible server without keys)")
	v.Check(c.Provider == AzureOpenAI && c.BaseURL == "", "base_url: required for azure_openai (the resource endpoint)")
	v.Check(c.Provider == AzureOpenAI && c.APIVersion == "", "api_version: required for azure_openai")
	authHeader := slices.ContainsFunc(slices.Collect(maps.Keys(c.Headers)), func(k string) bool { return strings.EqualFold(k, "Authorization") })
	v.Check(c.Provider == AzureOpenAI && noKey && !authHeader, "api_key: required for azure_openai (or an Authorization header)")
	v.Check(c.Provider == Gemini && noKey, "api_key: required for gemini")
	v.Check(c.Provider == Vertex && noKey && c.Project == "", "project: required for vertex without api_key")
	v.Check(c.Provider == Vertex && noKey && c.Location == "", "location: required for vertex without api_key")
	v.Check(c.Provider == Anthropic && c.BaseURL == "" && noKey, "api_key: required for anthropic")
	v.Check(c.Provider != Vertex && c.AccessToken != "", "access_token: only used by vertex")
	v.Check(c.Provider != AzureOpenAI && c.APIVersion != "", "api_version: only used by azure_openai")
	v.Check(c.Provider != AzureOpenAI && c.APIVersion == "" && c.Deployment != "", "deployment: only used by azure_openai")
	v.Check(c.Provider != Vertex && c.Provider != "" && (c.Project != "" || c.Location != ""), "project: project and location are only used by vertex")
	return v.Err()
}

// baseURLProblem says what is wrong with base_url u, "" when nothing is.
func baseURLProblem(u string) string {
	p, err := url.Parse(u)
	switch {
	case err != nil:
		return "not a URL"
	case p.Scheme != "http" && p.Scheme != "https":
		return "scheme must be http or https"
	case p.Host == "":
		return "host required"
	case p.User != nil:
		return "must not carry credentials; use api_key or headers"
	}
	return ""
}

// safeURL returns u without user info, query or fragment, which may hold
// credentials.
func safeURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "(invalid URL)"
	}
	parsed.User, parsed.RawQuery, parsed.Fragment = nil, "", ""
	return parsed.String()
}

// secrets lists the credential strings that must never be echoed.
func (c Config) secrets() []string {
	var out []string
	for _, s := range []configopaque.String{c.APIKey, c.AccessToken} {
		if s != "" {
			out = append(out, string(s))
		}
	}
	if u, err := url.Parse(c.BaseURL); err == nil {
		// A query parameter may carry a key (some proxies take one).
		for _, vs := range u.Query() {
			for _, v := range vs {
				if len(v) >= 8 {
					out = append(out, v)
				}
			}
		}
	}
	for k, v := range c.Headers {
		if v != "" && mentions(k, "auth", "key", "token", "cookie") {
			out = append(out, string(v))
		}
	}
	return out
}

// New validates cfg and returns its provider. hc supplies the transport,
// timeouts and proxy settings; nil uses a default client. The client is
// copied so that it does not follow redirects to another origin.
func New(cfg Config, hc *http.Client) (judge.Provider, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("judge provider %q: %w", cfg.Model, err)
	}
	cfg = cfg.withDefaults()
	hc = httpClient(hc)
	switch cfg.Provider {
	case OpenAI, AzureOpenAI:
		return newOpenAI(cfg, hc)
	case Gemini, Vertex:
		return newGemini(cfg, hc)
	default:
		return newAnthropic(cfg, hc)
	}
}

// temperature is the temperature to send: the request's when it sets
// one, else the configured one; nil with OmitTemperature.
func (c *Config) temperature(req *judge.Request) *float64 {
	switch {
	case c.OmitTemperature:
		return nil
	case req.Temperature != nil:
		return req.Temperature
	}
	return &c.Temperature
}

// maxTokens is the answer cap: the request's when it sets one, else the
// configured one.
func (c *Config) maxTokens(req *judge.Request) int {
	if req.MaxOutputTokens > 0 {
		return req.MaxOutputTokens
	}
	return c.MaxOutputTokens
}

// system is the request's system prompt, with the schema appended when
// the request has one and structured output is off.
func (c *common) system(req *judge.Request) (string, *judge.Error) {
	if req.Schema == nil || c.cfg.Structured() {
		return req.System, nil
	}
	b, err := json.Marshal(req.Schema.JSON)
	if err != nil {
		return "", c.answerError(judge.ClassBadRequest, 0, "schema does not encode: %v", err)
	}
	return req.System + schemaInstruction + string(b), nil
}
