package judge

import "github.com/evalsidecar/evalsidecar/internal/errs"

// Prices are a model's list prices in USD per million tokens.
type Prices struct {
	// InputPerMillionTokens is the price of one million prompt tokens.
	InputPerMillionTokens float64 `yaml:"input_per_million_tokens"`
	// OutputPerMillionTokens is the price of one million answer tokens.
	OutputPerMillionTokens float64 `yaml:"output_per_million_tokens"`
}

// Cost returns the USD cost of a call that used the given token counts.
// Negative counts cost nothing.
func (p Prices) Cost(inputTokens, outputTokens int64) float64 {
	return (float64(max(inputTokens, 0))*p.InputPerMillionTokens +
		float64(max(outputTokens, 0))*p.OutputPerMillionTokens) / 1e6
}

// Validate reports negative or non-finite prices; prefix is prepended to
// the key names (for example "prices.").
func (p Prices) Validate(prefix string) error {
	var v errs.Checks
	v.Check(!nonNegative(p.InputPerMillionTokens), "%sinput_per_million_tokens: must be a finite number >= 0, got %v", prefix, p.InputPerMillionTokens)
	v.Check(!nonNegative(p.OutputPerMillionTokens), "%soutput_per_million_tokens: must be a finite number >= 0, got %v", prefix, p.OutputPerMillionTokens)
	return v.Err()
}
