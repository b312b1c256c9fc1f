package judge

import (
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// ClientConfig is the policy part of one judge's configuration: the name,
// timeouts, retries, concurrency, breaker, budget, prices and fallback.
// The provider part (provider, model, endpoint, key) is configured beside
// it by the provider package.
type ClientConfig struct {
	// Name identifies the judge in metrics, logs, fallbacks and
	// Response.Judge.
	Name string `yaml:"name"`
	// Timeout bounds each attempt (each HTTP request).
	Timeout time.Duration `yaml:"timeout"`
	// MaxRetries is the number of retries after the first attempt, for
	// retryable failures only.
	MaxRetries int `yaml:"max_retries"`
	// MaxConcurrency caps the calls in flight to this judge.
	MaxConcurrency int `yaml:"max_concurrency"`
	// MaxPromptTokens, when > 0, skips a call whose instructions and
	// prompt are estimated (a quarter token per byte) at more tokens than
	// this, instead of sending a prompt past the model's context: a small
	// local model's default context is often 2,048 or 4,096 tokens.
	MaxPromptTokens int `yaml:"max_prompt_tokens"`
	// Fallback names the judge that answers while this judge's circuit is
	// open; empty for none.
	Fallback string `yaml:"fallback,omitempty"`
	// Circuit configures the circuit breaker.
	Circuit CircuitConfig `yaml:"circuit"`
	// Budget limits the calls, tokens and spend of this judge.
	Budget BudgetConfig `yaml:"budget"`
	// Prices turn token counts into Response.CostUSD.
	Prices Prices `yaml:"prices"`
}

// CircuitConfig configures the circuit breaker.
type CircuitConfig struct {
	// Failures is the number of consecutive failed calls (after their
	// retries) that opens the circuit.
	Failures int `yaml:"failures"`
	// OpenFor is how long the circuit stays open before one probe call
	// is let through.
	OpenFor time.Duration `yaml:"open_for"`
}

// Defaults of ClientConfig.
const (
	DefaultTimeout         = 30 * time.Second
	DefaultMaxRetries      = 3
	DefaultMaxConcurrency  = 4
	DefaultCircuitFailures = 5
	DefaultCircuitOpenFor  = 30 * time.Second
)

// maxRetriesLimit bounds max_retries: more retries only hold a
// concurrency slot longer against a provider that keeps failing.
const maxRetriesLimit = 10

// DefaultClientConfig returns the documented defaults: a 30s timeout per
// attempt, 3 retries, 4 calls in flight, a circuit that opens after 5
// consecutive failed calls for 30s, no budget limits and no prices.
func DefaultClientConfig() ClientConfig {
	return ClientConfig{
		Timeout:        DefaultTimeout,
		MaxRetries:     DefaultMaxRetries,
		MaxConcurrency: DefaultMaxConcurrency,
		Circuit: CircuitConfig{
			Failures: DefaultCircuitFailures,
			OpenFor:  DefaultCircuitOpenFor,
		},
	}
}

// Validate reports every invalid key, named as in the YAML document.
func (c ClientConfig) Validate() error {
	var v errs.Checks
	v.Check(c.Name == "", "name: must not be empty")
	v.Check(c.Timeout <= 0, "timeout: must be > 0, got %s", c.Timeout)
	v.Check(c.MaxRetries < 0 || c.MaxRetries > maxRetriesLimit, "max_retries: must be in [0, %d], got %d", maxRetriesLimit, c.MaxRetries)
	v.Check(c.MaxConcurrency <= 0, "max_concurrency: must be > 0, got %d", c.MaxConcurrency)
	v.Check(c.MaxPromptTokens < 0, "max_prompt_tokens: must be >= 0, got %d", c.MaxPromptTokens)
	v.Check(c.Fallback != "" && c.Fallback == c.Name, "fallback: judge %q cannot fall back to itself", c.Name)
	v.Check(c.Circuit.Failures <= 0, "circuit.failures: must be > 0, got %d", c.Circuit.Failures)
	v.Check(c.Circuit.OpenFor <= 0, "circuit.open_for: must be > 0, got %s", c.Circuit.OpenFor)
	v.Add(c.Budget.Validate("budget."), c.Prices.Validate("prices."))
	return v.Err()
}
