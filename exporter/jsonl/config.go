// Package jsonl writes trajectories, scores, judge-ledger decisions,
// sessions and people's feedback as JSON lines files: one object per line,
// in trajectories.jsonl, scores.jsonl, decisions.jsonl, sessions.jsonl and
// feedback.jsonl, rotated by size.
// The objects are the record package's rows.
package jsonl

import (
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
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
	// MaxAge deletes rotated files this long after their rotation; 0 keeps
	// them until max_files pushes them out.
	MaxAge time.Duration `yaml:"max_age"`
	// MinAge is how long a rotated file is expected to stay for its
	// readers: deleting one sooner (max_files reached too fast) is logged
	// at WARN. Deleted bytes are counted either way. 0 disables the
	// warning.
	MinAge time.Duration `yaml:"min_age"`
	// SendingQueue holds evaluations waiting to be written; when it is
	// full new evaluations are dropped and counted.
	SendingQueue queue.Config `yaml:"sending_queue"`
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
		MinAge:        10 * time.Minute,
		SendingQueue:  queue.Config{Enabled: true, NumConsumers: 1, QueueSize: 10000},
		FlushInterval: time.Second,
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(c.Directory == "", "directory: must not be empty")
	v.Check(c.MaxFileBytes <= 0, "max_file_bytes: must be > 0, got %d", c.MaxFileBytes)
	v.Check(c.MaxFiles < 0, "max_files: must be >= 0, got %d", c.MaxFiles)
	v.Check(c.MaxAge < 0 || c.MinAge < 0, "max_age, min_age: must be >= 0, got %s, %s", c.MaxAge, c.MinAge)
	v.Add(errs.Prefix("sending_queue.", c.SendingQueue.Validate()))
	v.Check(c.FlushInterval <= 0, "flush_interval: must be > 0, got %s", c.FlushInterval)
	return v.Err()
}
