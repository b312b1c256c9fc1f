package redact

import (
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestConfigYAML: YAML decoded over DefaultConfig keeps redaction on
// unless it is turned off, and reads types and custom patterns.
func TestConfigYAML(t *testing.T) {
	cases := []struct {
		name, doc string
		enabled   bool
		types     []string
		custom    int
	}{
		{"empty keeps defaults", "{}", true, nil, 0},
		{"types", "types: [email, card]", true, []string{"email", "card"}, 0},
		{"off", "enabled: false", false, nil, 0},
		{"custom", "custom:\n  - name: ticket\n    pattern: 'TCK-[0-9]{6}'\n", true, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if err := yaml.Unmarshal([]byte(c.doc), &cfg); err != nil {
				t.Fatal(err)
			}
			if cfg.Enabled != c.enabled || !slices.Equal(cfg.Types, c.types) || len(cfg.Custom) != c.custom {
				t.Errorf("decoded %+v", cfg)
			}
			if err := cfg.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}
