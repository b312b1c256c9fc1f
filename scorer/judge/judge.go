// Package judge is the LLM-judge client: one provider-neutral Request and
// Response, a Provider per wire format (OpenAI-compatible chat completions,
// Gemini generateContent, Anthropic Messages), and the Client that adds
// timeouts, retries that honour the provider's retry hints, a circuit
// breaker, a concurrency limit, budgets and a fallback judge.
package judge

import (
	"context"
	"time"
)

// Request is one judge call, independent of the provider.
type Request struct {
	// System holds the trusted evaluator instructions.
	System string
	// Prompt is the rendered user message. Untrusted content in it is
	// already redacted and wrapped in the request's data envelope.
	Prompt string
	// Schema, when set, asks for structured output that validates against
	// it (OpenAI response_format json_schema strict, Gemini responseSchema,
	// Anthropic forced tool input). The answer text is then the JSON object.
	Schema *Schema
	// MaxOutputTokens caps the answer; 0 uses the judge's configured cap.
	MaxOutputTokens int
	// Metric is the metric id making the call, for budgets, logs and
	// metrics labels.
	Metric string
	// Temperature overrides the judge's configured temperature for this
	// call (a metric that samples the judge several times and votes);
	// nil uses the judge's. A judge configured with omit_temperature
	// sends none either way.
	Temperature *float64
}

// Schema is a JSON Schema for structured output.
type Schema struct {
	// Name identifies the schema to the provider ([a-zA-Z0-9_-], ≤ 64).
	Name string
	// JSON is the schema document (type object, properties, required,
	// additionalProperties false).
	JSON map[string]any
}

// Response is a judge's answer.
type Response struct {
	// Text is the answer: the model's text, or the structured-output JSON.
	Text string
	// Judge is the configured judge name that answered (the fallback's
	// name when the primary's circuit was open).
	Judge string
	// Provider is the wire format: "openai", "gemini" or "anthropic".
	Provider string
	// Model is the model that answered, as the provider reports it.
	Model string
	// InputTokens and OutputTokens are the provider's usage counts.
	InputTokens, OutputTokens int64
	// CostUSD is the estimate from the judge's configured prices.
	CostUSD float64
	// Latency is the wall time of the successful attempt.
	Latency time.Duration
	// Attempts counts the HTTP attempts made, retries included.
	Attempts int
}

// Provider sends one request to one model, once: no retries, no limits.
// It classifies every failure as an *Error.
type Provider interface {
	// Kind is the wire format: "openai", "gemini" or "anthropic".
	Kind() string
	// Model is the configured model name.
	Model() string
	// Complete sends req and returns the answer.
	Complete(ctx context.Context, req *Request) (*Response, error)
}

// Judge answers judge requests. The Client implements it; judge metrics
// depend only on this interface.
type Judge interface {
	// Name is the configured judge name.
	Name() string
	// Judge sends req with the client's policies and returns the answer.
	Judge(ctx context.Context, req *Request) (*Response, error)
}
