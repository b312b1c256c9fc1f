package judgemetrictest

import (
	"slices"
	"strings"
	"sync"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Sanitizers makes MarkingSanitizers and records what they do: how many
// were made and which fields they wrapped. It is safe for concurrent use.
type Sanitizers struct {
	env Envelope

	mu     sync.Mutex
	made   int
	fields []string
}

// NewSanitizers returns a factory of sanitizers marking with env.
func NewSanitizers(env Envelope) *Sanitizers { return &Sanitizers{env: env} }

// Envelope returns the envelope the sanitizers mark with.
func (s *Sanitizers) Envelope() Envelope { return s.env }

// New returns a fresh MarkingSanitizer.
func (s *Sanitizers) New() judge.Sanitizer {
	s.mu.Lock()
	s.made++
	s.mu.Unlock()
	return &MarkingSanitizer{env: s.env, rec: s}
}

// ForMetric is a judgemetric.Deps.Sanitizers: every metric gets New.
func (s *Sanitizers) ForMetric(string) func() judge.Sanitizer { return s.New }

// Made returns the number of sanitizers made so far.
func (s *Sanitizers) Made() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.made
}

// Fields returns the fields wrapped so far, in call order, repeats
// included.
func (s *Sanitizers) Fields() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.fields)
}

func (s *Sanitizers) record(field string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fields = append(s.fields, field)
}

// MarkingSanitizer is a judge.Sanitizer that wraps content in its
// Envelope unchanged (no redaction, no allow-list), raises no pre-filter
// flags, and flags an answer that echoes the envelope key with EchoFlag.
type MarkingSanitizer struct {
	env Envelope
	rec *Sanitizers
}

// NewMarkingSanitizer returns a sanitizer marking with env that records
// nothing.
func NewMarkingSanitizer(env Envelope) *MarkingSanitizer { return &MarkingSanitizer{env: env} }

// Untrusted returns text wrapped as field.
func (m *MarkingSanitizer) Untrusted(field, text string) string {
	if m.rec != nil {
		m.rec.record(field)
	}
	return m.env.Wrap(field, text)
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
