package queue

import "github.com/evalsidecar/evalsidecar/internal/errs"

// Config is a stage's sending_queue block, with the OpenTelemetry
// Collector's keys and meanings (exporterhelper's queue settings).
type Config struct {
	// Enabled puts a queue and its consumers between the stage's callers
	// and its work; off, the caller does the work itself and waits for it.
	Enabled bool `yaml:"enabled"`
	// NumConsumers is the number of goroutines taking items off the queue.
	NumConsumers int `yaml:"num_consumers"`
	// QueueSize bounds the items queued and in process, in the stage's
	// unit (requests, trajectories, rows, events); beyond it new items are
	// refused and counted as dropped.
	QueueSize int `yaml:"queue_size"`
}

// Validate reports every invalid key, named as in the block.
func (c Config) Validate() error {
	if !c.Enabled {
		return nil
	}
	var v errs.Checks
	v.Check(c.NumConsumers <= 0, "num_consumers: must be > 0, got %d", c.NumConsumers)
	v.Check(c.QueueSize <= 0, "queue_size: must be > 0, got %d", c.QueueSize)
	return v.Err()
}
