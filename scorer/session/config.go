package session

import (
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Session sources.
const (
	SourceMemory     = "memory"
	SourceClickHouse = "clickhouse"
)

// Config configures the session assembler (the sessions: block).
type Config struct {
	// Enabled turns sessions on: runs with a conversation id are grouped
	// and each closed session is scored and exported.
	Enabled bool `yaml:"enabled"`
	// Source is where sessions are assembled from: "memory", the runs
	// this replica scores; or "clickhouse", the runs every replica wrote
	// to exporters.clickhouse, read back once idle by this replica alone
	// (run exactly one replica with it).
	Source string `yaml:"source"`
	// IdleTimeout closes a session when no new turn arrived for this long.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// MaxAge closes a session this long after its first turn arrived,
	// idle or not; later turns start a new session with the same id.
	MaxAge time.Duration `yaml:"max_age"`
	// MaxSessions caps the sessions open at once; the oldest is closed
	// early when a new one would exceed it.
	MaxSessions int `yaml:"max_sessions"`
	// MaxBytes caps the estimated memory of the open sessions; the oldest
	// are closed early to stay within it.
	MaxBytes int64 `yaml:"max_bytes"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:     false,
		Source:      SourceMemory,
		IdleTimeout: 15 * time.Minute,
		MaxAge:      4 * time.Hour,
		MaxSessions: 10000,
		MaxBytes:    64 << 20,
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(c.Source != SourceMemory && c.Source != SourceClickHouse, "source: %q is not one of memory, clickhouse", c.Source)
	v.Check(c.IdleTimeout <= 0, "idle_timeout: must be > 0")
	v.Check(c.MaxAge <= 0, "max_age: must be > 0")
	v.Check(c.MaxAge > 0 && c.IdleTimeout > 0 && c.MaxAge < c.IdleTimeout, "max_age: must be >= idle_timeout")
	v.Check(c.MaxSessions <= 0, "max_sessions: must be > 0")
	v.Check(c.MaxBytes <= 0, "max_bytes: must be > 0")
	return v.Err()
}
