// Package configopaque holds the configuration type of secrets, in the
// manner of the OpenTelemetry Collector's configopaque: a string that
// formats, logs and marshals as "[REDACTED]", so a credential never leaks
// through fmt, log/slog, JSON or a YAML dump of the configuration.
package configopaque

import (
	"fmt"
	"log/slog"
	"strconv"
)

// Redacted is what a non-empty String prints as.
const Redacted = "[REDACTED]"

// String is a secret configuration value. Convert it with string(s) where
// the value itself is needed.
type String string

// String returns "[REDACTED]", or "" for an empty secret.
func (s String) String() string {
	if s == "" {
		return ""
	}
	return Redacted
}

// GoString returns the redacted form for %#v.
func (s String) GoString() string { return strconv.Quote(s.String()) }

// Format writes the redacted form for every fmt verb.
func (s String) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s.String())) }

// LogValue returns the redacted form for log/slog.
func (s String) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText returns the redacted form (encoding.TextMarshaler).
func (s String) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// MarshalJSON writes the redacted form.
func (s String) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(s.String())), nil }

// MarshalYAML writes the redacted form.
func (s String) MarshalYAML() (any, error) { return s.String(), nil }

// Map is a set of secret values by name, such as the headers of a client
// that may carry an API key.
type Map map[string]String

// Plain returns m's values as plain strings, for the request that needs
// them.
func (m Map) Plain() map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}
