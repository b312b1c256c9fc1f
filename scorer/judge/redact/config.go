package redact

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Redaction types, as they appear in "[REDACTED:<type>]" and in the type
// label of evalsidecar_judge_redactions_total.
const (
	TypeEmail  = "email"
	TypePhone  = "phone"
	TypeCard   = "card"
	TypeIBAN   = "iban"
	TypeIP     = "ip"
	TypeAPIKey = "api_key"
	TypeBearer = "bearer"
	TypeJWT    = "jwt"
	TypeSecret = "secret"
)

// customPrefix prefixes the type of a configured extra pattern.
const customPrefix = "custom:"

// Types returns the built-in detector types in their fixed order.
func Types() []string {
	return []string{TypeEmail, TypePhone, TypeCard, TypeIBAN, TypeIP, TypeAPIKey, TypeBearer, TypeJWT, TypeSecret}
}

// Config configures redaction.
type Config struct {
	// Enabled turns redaction on. DefaultConfig enables it; decode YAML
	// over DefaultConfig() so that an absent key keeps it on.
	Enabled bool `yaml:"enabled"`
	// Types lists the built-in detectors to run; empty runs all of them.
	Types []string `yaml:"types"`
	// Custom adds extra patterns, each redacted as custom:<name>.
	Custom []CustomPattern `yaml:"custom"`
}

// CustomPattern is one configured extra pattern.
type CustomPattern struct {
	// Name is the type suffix: matches become [REDACTED:custom:<name>].
	// Letters, digits, '_' and '-' only.
	Name string `yaml:"name"`
	// Pattern is an RE2 regular expression (Go regexp syntax).
	Pattern string `yaml:"pattern"`
}

// DefaultConfig returns the defaults: enabled, every built-in type, no
// custom patterns.
func DefaultConfig() Config {
	return Config{Enabled: true}
}

var customNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Validate reports every invalid key, relative to "redaction".
func (c Config) Validate() error {
	_, err := c.compile()
	return err
}

// compile validates c and compiles its custom patterns.
func (c Config) compile() ([]customDetector, error) {
	var v errs.Checks
	known := Types()
	for i, t := range c.Types {
		v.Check(!slices.Contains(known, t), "redaction.types[%d]: unknown type %q (known: %s)", i, t, strings.Join(known, ", "))
	}
	seen := map[string]bool{}
	var out []customDetector
	for i, p := range c.Custom {
		key := fmt.Sprintf("redaction.custom[%d]", i)
		named := customNameRE.MatchString(p.Name)
		v.Check(!named, "%s.name: %q must be 1-64 letters, digits, '_' or '-'", key, p.Name)
		v.Check(named && seen[p.Name], "%s.name: duplicate name %q", key, p.Name)
		seen[p.Name] = true
		re, err := regexp.Compile(p.Pattern)
		switch {
		case p.Pattern == "":
			v.Check(true, "%s.pattern: must not be empty", key)
		case err != nil:
			v.Add(fmt.Errorf("%s.pattern: %w", key, err))
		case re.MatchString(""):
			v.Check(true, "%s.pattern: must not match the empty string", key)
		default:
			out = append(out, customDetector{typ: customPrefix + p.Name, re: re})
		}
	}
	return out, v.Err()
}

// enabled reports whether built-in type t runs under c.
func (c Config) enabled(t string) bool {
	return len(c.Types) == 0 || slices.Contains(c.Types, t)
}
