package clickhouse

import (
	"strings"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

func TestDefaultConfigIsValid(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateNamesTheKey(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"empty endpoint", func(c *Config) { c.Enabled = true; c.Endpoint = "" }, "endpoint: must not be empty"},
		{"database injection", func(c *Config) { c.Database = "x; DROP TABLE y" }, "database:"},
		{"table name", func(c *Config) { c.Tables.ToolCalls = "tool-calls" }, "tables.tool_calls:"},
		{"duplicate tables", func(c *Config) { c.Tables.Trajectories = c.Tables.Evaluations }, "tables.trajectories: same table name"},
		{"reserved", func(c *Config) { c.Tables.EvalDecisions = "schema_migrations" }, "tables.eval_decisions: \"schema_migrations\" is reserved"},
		{"cluster", func(c *Config) { c.Cluster = "a b" }, "cluster:"},
		{"ttl", func(c *Config) { c.TTL = 1500 * time.Millisecond }, "ttl:"},
		{"engine", func(c *Config) { c.Engine = "Log" }, "engine:"},
		{"batch rows", func(c *Config) { c.BatchRows = 0 }, "batch_rows: must be > 0"},
		{"flush", func(c *Config) { c.FlushInterval = 0 }, "flush_interval: must be > 0"},
		{"queue", func(c *Config) { c.SendingQueue.QueueSize = 10 }, "sending_queue.queue_size: must be >= batch_rows"},
		{"no consumers", func(c *Config) { c.SendingQueue.NumConsumers = 0 }, "sending_queue.num_consumers: must be > 0"},
		{"timeout", func(c *Config) { c.Timeout = 0 }, "timeout: must be > 0"},
		{"retry", func(c *Config) { c.RetryOnFailure.Multiplier = 0.5 }, "retry_on_failure.multiplier"},
		{"randomization factor", func(c *Config) { c.RetryOnFailure.RandomizationFactor = 1.5 }, "retry_on_failure.randomization_factor"},
		{"max interval", func(c *Config) { c.RetryOnFailure.MaxInterval = time.Millisecond }, "retry_on_failure.max_interval"},
		{"max elapsed time", func(c *Config) { c.RetryOnFailure.MaxElapsedTime = time.Second }, "retry_on_failure.max_elapsed_time"},
		{"park", func(c *Config) { c.ParkInterval = 0 }, "park_interval: must be > 0"},
		{"spool size", func(c *Config) { c.Spool.MaxBytes = 0 }, "spool.max_bytes: must be > 0"},
		{"policy", func(c *Config) { c.Spool.DropPolicy = "drop_random" }, "spool.drop_policy"},
		{"replica", func(c *Config) { c.Cluster = "c"; c.ReplicaPath = "" }, "replica_path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			c.edit(&cfg)
			err := cfg.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want it to mention %q", err, c.want)
			}
		})
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.BatchRows = -1
	if _, err := New(cfg, telemetry.Settings{}); err == nil || !strings.Contains(err.Error(), "batch_rows") {
		t.Errorf("New: %v", err)
	}
}
