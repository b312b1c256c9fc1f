package guard

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"regexp"
	"slices"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
)

// DefaultMaxFieldBytes is the default maximum length of one untrusted
// field.
const DefaultMaxFieldBytes = 16 << 10

// keyBytes is the size of the random envelope key (64 bits).
const keyBytes = 8

// Config is the part of a metric's configuration that controls what its
// judge requests may carry.
type Config struct {
	// AllowedFields lists the fields the metric may send to its judge;
	// nil sends all of them, an empty list none.
	AllowedFields []string `yaml:"allowed_fields"`
	// MaxFieldBytes caps each field; longer fields are truncated. 0 uses
	// DefaultMaxFieldBytes.
	MaxFieldBytes int `yaml:"max_field_bytes"`
}

var fieldNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// Validate reports every invalid key, relative to prefix (for example
// "metrics[2].params").
func (c Config) Validate(prefix string) error {
	var v errs.Checks
	for i, f := range c.AllowedFields {
		v.Check(!fieldNameRE.MatchString(f), "%s.allowed_fields[%d]: %q must be lower-case letters, digits and '_'", prefix, i, f)
	}
	v.Check(c.MaxFieldBytes < 0, "%s.max_field_bytes: must be >= 0, got %d", prefix, c.MaxFieldBytes)
	return v.Err()
}

// Policy holds one metric's rules for untrusted content. It is read-only
// after construction and safe for concurrent use.
type Policy struct {
	// Redactor redacts every field before it is wrapped; nil: no
	// redaction.
	Redactor *redact.Redactor
	// AllowedFields lists the fields that may be sent; nil: all fields.
	AllowedFields []string
	// MaxFieldBytes caps each field; 0: DefaultMaxFieldBytes.
	MaxFieldBytes int
	// Rand is the source of envelope keys; nil: crypto/rand.
	Rand io.Reader
}

// NewPolicy returns the Policy of a metric configured with cfg.
func NewPolicy(cfg Config, r *redact.Redactor) *Policy {
	return &Policy{Redactor: r, AllowedFields: cfg.AllowedFields, MaxFieldBytes: cfg.MaxFieldBytes}
}

// New returns a Sanitizer for one judge request, with a fresh envelope key.
func (p *Policy) New() judge.Sanitizer {
	return p.newSanitizer()
}

func (p *Policy) newSanitizer() *Sanitizer {
	var b [keyBytes]byte
	if p.Rand == nil || readFull(p.Rand, b[:]) != nil {
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	}
	return &Sanitizer{policy: p, key: hex.EncodeToString(b[:]), flags: map[string]bool{}}
}

func readFull(r io.Reader, b []byte) error {
	_, err := io.ReadFull(r, b)
	return err
}

// allowed reports whether field may be sent.
func (p *Policy) allowed(field string) bool {
	return p.AllowedFields == nil || slices.Contains(p.AllowedFields, field)
}

// maxBytes returns the field cap.
func (p *Policy) maxBytes() int {
	if p.MaxFieldBytes > 0 {
		return p.MaxFieldBytes
	}
	return DefaultMaxFieldBytes
}
