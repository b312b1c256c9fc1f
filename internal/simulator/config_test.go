package simulator

import (
	"strings"
	"testing"
)

func TestConfig(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*Config)
		wantErr []string // substrings; empty means valid
	}{
		{"valid", func(c *Config) {
			c.Endpoint, c.Protocol, c.Service, c.Release = "127.0.0.1:4318", ProtocolHTTP, "shop-agent", "2.3.1"
			c.Environment, c.Quality, c.EventForm, c.Seed = "staging", Degraded, true, 99
			c.Headers = map[string]string{"authorization": "Bearer demo"}
		}, nil},
		{"bad protocol", func(c *Config) { c.Protocol = "kafka" }, []string{"protocol: must be"}},
		{"bad endpoint", func(c *Config) { c.Endpoint = "localhost" }, []string{"endpoint: must be host:port"}},
		{"bad port", func(c *Config) { c.Endpoint = "127.0.0.1:70000" }, []string{"endpoint: port"}},
		{"empty service", func(c *Config) { c.Service, c.Release = "", "" }, []string{"service: must not be empty", "release: must not be empty"}},
		{"bad quality", func(c *Config) { c.Quality = 7 }, []string{"quality: must be good or degraded, got 7"}},
		{"empty header", func(c *Config) { c.Headers = map[string]string{"": "x"} }, []string{"headers: header name must not be empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tt.mutate(&cfg)
			err := cfg.Validate()
			if len(tt.wantErr) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("config %+v accepted", cfg)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestConfigDefaultsAndNew(t *testing.T) {
	def := DefaultConfig()
	if err := def.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	if _, err := New(t.Context(), Config{}); err == nil || !strings.Contains(err.Error(), "endpoint") {
		t.Errorf("New with a zero Config = %v", err)
	}
}
