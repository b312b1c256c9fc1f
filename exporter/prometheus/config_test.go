package prometheus

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name    string
		mutate  func(*Config)
		wantErr []string // substrings; nil means valid
	}{
		{"defaults", func(*Config) {}, nil},
		{"any port", func(c *Config) { c.Endpoint = "0.0.0.0:0" }, nil},
		{"ipv6", func(c *Config) { c.Endpoint = "[::1]:9464" }, nil},
		{"no port", func(c *Config) { c.Endpoint = "localhost" }, []string{"endpoint:"}},
		{"bad port", func(c *Config) { c.Endpoint = "localhost:http-alt" }, []string{"endpoint: port"}},
		{"port too big", func(c *Config) { c.Endpoint = "localhost:70000" }, []string{"endpoint: port"}},
		{"zero labels", func(c *Config) { c.MaxLabelValues = 0 }, []string{"max_label_values: must be > 0"}},
		{"both", func(c *Config) { c.Endpoint = ""; c.MaxLabelValues = -1 }, []string{"endpoint:", "max_label_values:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			c.mutate(&cfg)
			err := cfg.Validate()
			if c.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %v", c.wantErr)
			}
			for _, w := range c.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxLabelValues = 0
	if _, err := New(cfg, telemetry.Settings{}); err == nil || !strings.Contains(err.Error(), "max_label_values") {
		t.Fatalf("New with invalid config: %v", err)
	}
}
