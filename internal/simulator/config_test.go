package simulator

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// loadConfig decodes a YAML fixture over the defaults, rejecting unknown
// keys, as the top-level config loader does.
func loadConfig(t *testing.T, name string) (Config, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "config", name))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

func TestConfig(t *testing.T) {
	tests := []struct {
		file    string
		wantErr []string // substrings; empty means valid
	}{
		{"valid.yaml", nil},
		{"bad_protocol.yaml", []string{"protocol: must be"}},
		{"bad_endpoint.yaml", []string{"endpoint: must be host:port"}},
		{"bad_port.yaml", []string{"endpoint: port"}},
		{"empty_service.yaml", []string{"service: must not be empty", "release: must not be empty"}},
		{"bad_quality.yaml", []string{`unknown quality "excellent"`}},
		{"typo.yaml", []string{"field endpont not found"}},
		{"empty_header.yaml", []string{"headers: header name must not be empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := loadConfig(t, tt.file)
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

func TestConfigValidValues(t *testing.T) {
	cfg, err := loadConfig(t, "valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Endpoint: "127.0.0.1:4318", Protocol: ProtocolHTTP, Service: "shop-agent", Release: "2.3.1",
		Environment: "staging", Quality: Degraded, EventForm: true, Seed: 99,
	}
	if cfg.Headers["authorization"] != "Bearer demo" {
		t.Errorf("headers = %v", cfg.Headers)
	}
	cfg.Headers = nil
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got %+v, want %+v", cfg, want)
	}
	def := DefaultConfig()
	if err := def.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	if _, err := New(t.Context(), Config{}); err == nil || !strings.Contains(err.Error(), "endpoint") {
		t.Errorf("New with a zero Config = %v", err)
	}
}

func TestQualityText(t *testing.T) {
	for _, q := range []Quality{Good, Degraded} {
		b, err := q.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Quality
		if err := back.UnmarshalText(b); err != nil || back != q {
			t.Errorf("%v round-trips to %v, %v", q, back, err)
		}
	}
	if _, err := Quality(7).MarshalText(); err == nil {
		t.Error("Quality(7) marshalled")
	}
}

func FuzzParseQuality(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuality(s)
		if err != nil {
			if !strings.Contains(err.Error(), "unknown quality") {
				t.Errorf("error %q", err)
			}
			return
		}
		if got := strings.ToLower(strings.TrimSpace(s)); got != q.String() {
			t.Errorf("%q parsed as %v", s, q)
		}
	})
}
