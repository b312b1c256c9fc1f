package scorer

import (
	"fmt"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
	"github.com/evalsidecar/evalsidecar/internal/queue"
)

// MetricConfig selects one metric by its public id and sets its
// parameters. Unknown parameters are rejected by the metric's factory.
type MetricConfig struct {
	// Name is the metric id reported in scores and labels.
	Name string `yaml:"name"`
	// Type is the registered metric to build; empty means Name. It lets
	// one metric run under several ids with different parameters, e.g.
	// {name: my_rouge, type: rouge, params: {rouge_type: rougeLsum}}.
	Type   string         `yaml:"type,omitempty"`
	Params map[string]any `yaml:"params"`
	// SemanticsConfig overrides the metric's direction, unit, bounds,
	// pass rule and description (direction, unit, min, max, pass,
	// description keys).
	SemanticsConfig `yaml:",inline"`
}

// Config is the scorer's configuration.
type Config struct {
	// Metrics are the metrics run on every trajectory, in this order.
	Metrics []MetricConfig `yaml:"metrics"`
	// SendingQueue holds the trajectories waiting to be scored and sets
	// the number of goroutines scoring them; a full queue refuses new
	// trajectories.
	SendingQueue queue.Config `yaml:"sending_queue"`
	// MetricTimeout bounds one metric call on one trajectory.
	MetricTimeout time.Duration `yaml:"metric_timeout"`
	// References gives live runs their expected side (see
	// ReferencesConfig).
	References ReferencesConfig `yaml:"references"`
}

// DefaultConfig returns the engine's documented defaults: a queue of 1000
// trajectories, 2 consumers and a 5s timeout per metric call. The default
// metric list is catalog.DefaultMetrics (the sidecar's config sets it).
func DefaultConfig() Config {
	return Config{
		SendingQueue:  queue.Config{Enabled: true, NumConsumers: 2, QueueSize: 1000},
		MetricTimeout: 5 * time.Second,
		References:    DefaultReferencesConfig(),
	}
}

// Validate reports every invalid key. It checks the shape of the metric
// list; whether a metric id exists and its params are valid is checked by
// Registry.Build.
func (c Config) Validate() error {
	var v errs.Checks
	v.Add(errs.Prefix("sending_queue.", c.SendingQueue.Validate()))
	v.Check(c.MetricTimeout <= 0, "metric_timeout: must be > 0, got %s", c.MetricTimeout)
	v.Add(c.References.Validate())
	seen := make(map[string]int, len(c.Metrics))
	for i, m := range c.Metrics {
		j, dup := seen[m.Name]
		v.Check(m.Name == "", "metrics[%d].name: must not be empty", i)
		v.Check(dup, "metrics[%d].name: duplicate metric %q (also metrics[%d])", i, m.Name, j)
		if m.Name == "" || dup {
			continue // the overrides of an unnamed or repeated metric are not checked
		}
		seen[m.Name] = i
		v.Add(errs.Prefix(fmt.Sprintf("metrics[%d].", i), m.CheckSemantics()))
	}
	return v.Err()
}
