package judge

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func decodeConfig(t *testing.T, file string) ClientConfig {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultClientConfig()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestClientConfigYAML(t *testing.T) {
	tests := []struct {
		file string
		want ClientConfig
	}{
		{"client_config.yaml", ClientConfig{
			Name: "primary", Timeout: 45 * time.Second, MaxRetries: 2, MaxConcurrency: 8, Fallback: "backup",
			Circuit: CircuitConfig{Failures: 3, OpenFor: time.Minute},
			Budget:  BudgetConfig{CallsPerMinute: 60, TokensPerHour: 200000, TokensPerDay: 2000000, USDPerDay: 12.5},
			Prices:  Prices{InputPerMillionTokens: 2.5, OutputPerMillionTokens: 10},
		}},
		{"client_config_partial.yaml", ClientConfig{
			Name: "backup", Timeout: DefaultTimeout, MaxRetries: DefaultMaxRetries, MaxConcurrency: DefaultMaxConcurrency,
			Circuit: CircuitConfig{Failures: DefaultCircuitFailures, OpenFor: DefaultCircuitOpenFor},
			Budget:  BudgetConfig{USDPerDay: 3},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := decodeConfig(t, tt.file)
			if got != tt.want {
				t.Errorf("decoded %+v\nwant    %+v", got, tt.want)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestClientConfigValidate(t *testing.T) {
	valid := testConfig("j")
	tests := []struct {
		name   string
		modify func(*ClientConfig)
		want   []string // keys named in the error; nil means valid
	}{
		{"defaults with a name", func(*ClientConfig) {}, nil},
		{"zero retries", func(c *ClientConfig) { c.MaxRetries = 0 }, nil},
		{"no name", func(c *ClientConfig) { c.Name = "" }, []string{"name:"}},
		{"zero timeout", func(c *ClientConfig) { c.Timeout = 0 }, []string{"timeout:"}},
		{"negative retries", func(c *ClientConfig) { c.MaxRetries = -1 }, []string{"max_retries:"}},
		{"too many retries", func(c *ClientConfig) { c.MaxRetries = 11 }, []string{"max_retries:"}},
		{"zero concurrency", func(c *ClientConfig) { c.MaxConcurrency = 0 }, []string{"max_concurrency:"}},
		{"self fallback", func(c *ClientConfig) { c.Fallback = "j" }, []string{"fallback:"}},
		{"circuit", func(c *ClientConfig) { c.Circuit = CircuitConfig{} }, []string{"circuit.failures:", "circuit.open_for:"}},
		{"budget", func(c *ClientConfig) {
			c.Budget = BudgetConfig{CallsPerMinute: -1, TokensPerHour: -1, TokensPerDay: -1, USDPerDay: -1}
		}, []string{"budget.calls_per_minute:", "budget.tokens_per_hour:", "budget.tokens_per_day:", "budget.usd_per_day:"}},
		{"prices", func(c *ClientConfig) { c.Prices = Prices{InputPerMillionTokens: -1, OutputPerMillionTokens: -2} },
			[]string{"prices.input_per_million_tokens:", "prices.output_per_million_tokens:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := valid
			tt.modify(&cfg)
			err := cfg.Validate()
			if tt.want == nil {
				if err != nil {
					t.Errorf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate accepted %+v", cfg)
			}
			for _, key := range tt.want {
				if !strings.Contains(err.Error(), key) {
					t.Errorf("error %q does not name %s", err, key)
				}
			}
		})
	}
}

func TestPricesCost(t *testing.T) {
	tests := []struct {
		name    string
		prices  Prices
		in, out int64
		want    float64
	}{
		{"free", Prices{}, 1000, 1000, 0},
		{"one million each", Prices{InputPerMillionTokens: 2.5, OutputPerMillionTokens: 10}, 1_000_000, 1_000_000, 12.5},
		{"small call", Prices{InputPerMillionTokens: 0.15, OutputPerMillionTokens: 0.6}, 2000, 500, 0.0006},
		{"input only", Prices{InputPerMillionTokens: 3, OutputPerMillionTokens: 15}, 4_000, 0, 0.012},
		{"negative counts cost nothing", Prices{InputPerMillionTokens: 3, OutputPerMillionTokens: 15}, -5, -5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.prices.Cost(tt.in, tt.out)
			if diff := got - tt.want; diff > 1e-12 || diff < -1e-12 {
				t.Errorf("Cost(%d, %d) = %v, want %v", tt.in, tt.out, got, tt.want)
			}
		})
	}
}
