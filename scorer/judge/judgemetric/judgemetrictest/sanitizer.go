package judgemetrictest

import (
	"slices"
	"strings"
	"sync"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/guard"
)

// Sanitizers makes sanitizers and records how many were made and the
// flags they raised. It is safe for concurrent use.
type Sanitizers struct {
	env Envelope
	// inner makes the sanitizer New wraps.
	inner func() judge.Sanitizer

	mu    sync.Mutex
	made  int
	flags []string
}

// NewSanitizers returns a factory of MarkingSanitizers marking with env.
func NewSanitizers(env Envelope) *Sanitizers {
	return &Sanitizers{env: env, inner: func() judge.Sanitizer { return NewMarkingSanitizer(env) }}
}

// NewGuardSanitizers returns a factory of the project's real sanitizers
// (package guard, no redaction, every field allowed) whose envelope key
// is always zeros, so that prompts are reproducible. Golden prompts are
// rendered through them: what the golden file shows is what a judge
// receives.
func NewGuardSanitizers() *Sanitizers {
	p := &guard.Policy{Rand: zeros{}}
	env := Envelope{Open: "<data-{key} field=\"{field}\">\n", Close: "\n</data-{key}>", Key: "0000000000000000"}
	return &Sanitizers{env: env, inner: p.New}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// Flags returns the flags raised by every sanitizer made so far: the
// pre-filter flags and the flags of the answers checked.
func (s *Sanitizers) Flags() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.flags)
}

func (s *Sanitizers) recordFlags(fs []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range fs {
		if !slices.Contains(s.flags, f) {
			s.flags = append(s.flags, f)
		}
	}
}

// recording wraps a sanitizer and records the flags it raises.
type recording struct {
	judge.Sanitizer
	rec *Sanitizers
}

func (r recording) Flags() []string {
	fs := r.Sanitizer.Flags()
	r.rec.recordFlags(fs)
	return fs
}

func (r recording) CheckAnswer(answer string) []string {
	fs := r.Sanitizer.CheckAnswer(answer)
	r.rec.recordFlags(fs)
	return fs
}

// Envelope returns the envelope the sanitizers mark with.
func (s *Sanitizers) Envelope() Envelope { return s.env }

// New returns a fresh sanitizer that records into s.
func (s *Sanitizers) New() judge.Sanitizer {
	s.mu.Lock()
	s.made++
	s.mu.Unlock()
	return recording{Sanitizer: s.inner(), rec: s}
}

// ForMetric is a judgemetric.Deps.Sanitizers: every metric gets New.
func (s *Sanitizers) ForMetric(string) func() judge.Sanitizer { return s.New }

// Made returns the number of sanitizers made so far.
func (s *Sanitizers) Made() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.made
}

// MarkingSanitizer is a judge.Sanitizer that wraps content in its
// Envelope unchanged (no redaction, no allow-list), raises no pre-filter
// flags, and flags an answer that echoes the envelope key with EchoFlag.
type MarkingSanitizer struct {
	env Envelope
}

// NewMarkingSanitizer returns a sanitizer marking with env.
func NewMarkingSanitizer(env Envelope) *MarkingSanitizer { return &MarkingSanitizer{env: env} }

// Untrusted returns text wrapped as field.
func (m *MarkingSanitizer) Untrusted(field, text string) string { return m.env.Wrap(field, text) }

// UntrustedPieces returns the pieces joined, wrapped as field.
func (m *MarkingSanitizer) UntrustedPieces(field string, pieces []judge.Piece) string {
	return m.Untrusted(field, judge.JoinPieces(pieces))
}

// SystemNote returns the envelope's note.
func (m *MarkingSanitizer) SystemNote() string { return m.env.SystemNote() }

// CheckAnswer returns EchoFlag when answer contains the envelope key.
func (m *MarkingSanitizer) CheckAnswer(answer string) []string {
	if m.env.Key != "" && strings.Contains(answer, m.env.Key) {
		return []string{EchoFlag}
	}
	return nil
}

// Flags returns nil: the sanitizer raises no pre-filter flags.
func (m *MarkingSanitizer) Flags() []string { return nil }
