package guard

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"slices"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/redact"
)

// DefaultMaxFieldBytes is the default maximum length of one untrusted
// field.
const DefaultMaxFieldBytes = 16 << 10

// keyBytes is the size of the random envelope key (64 bits).
const keyBytes = 8

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
