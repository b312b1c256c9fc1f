// Package jsonl writes trajectories, scores and judge-ledger decisions as
// JSON lines files: one object per line, in trajectories.jsonl,
// scores.jsonl and decisions.jsonl, rotated by size.
// The objects are the record package's rows.
package jsonl

import (
	"errors"
	"fmt"
	"time"
)

// Config configures the JSON lines exporter.
type Config struct {
	// Enabled turns the exporter on.
	Enabled bool `yaml:"enabled"`
	// Directory holds the files; it is created (0750) when missing.
	Directory string `yaml:"directory"`
	// MaxFileBytes is the size at which a file is rotated.
	MaxFileBytes int64 `yaml:"max_file_bytes"`
	// MaxFiles is how many rotated files are kept per stream; older ones
	// are deleted. 0 keeps none.
	MaxFiles int `yaml:"max_files"`
	// QueueSize is how many evaluations may wait to be written; when full,
	// new evaluations are dropped and counted.
	QueueSize int `yaml:"queue_size"`
	// FlushInterval is how often buffered lines are written to the files.
	FlushInterval time.Duration `yaml:"flush_interval"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Enabled:       true,
		Directory:     "./evalsidecar-data",
		MaxFileBytes:  100 << 20,
		MaxFiles:      5,
		QueueSize:     10000,
		FlushInterval: time.Second,
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var errs []error
	if c.Directory == "" {
		errs = append(errs, errors.New("directory: must not be empty"))
	}
	if c.MaxFileBytes <= 0 {
		errs = append(errs, fmt.Errorf("max_file_bytes: must be > 0, got %d", c.MaxFileBytes))
	}
	if c.MaxFiles < 0 {
		errs = append(errs, fmt.Errorf("max_files: must be >= 0, got %d", c.MaxFiles))
	}
	if c.QueueSize <= 0 {
		errs = append(errs, fmt.Errorf("queue_size: must be > 0, got %d", c.QueueSize))
	}
	if c.FlushInterval <= 0 {
		errs = append(errs, fmt.Errorf("flush_interval: must be > 0, got %s", c.FlushInterval))
	}
	return errors.Join(errs...)
}
