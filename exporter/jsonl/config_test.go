package jsonl

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name    string
		mutate  func(*Config)
		wantErr []string
	}{
		{"defaults", func(*Config) {}, nil},
		{"keep no rotated files", func(c *Config) { c.MaxFiles = 0 }, nil},
		{"disabled defaults", func(c *Config) { c.Enabled = false }, nil},
		{"no directory", func(c *Config) { c.Directory = "" }, []string{"directory: must not be empty"}},
		{"zero size", func(c *Config) { c.MaxFileBytes = 0 }, []string{"max_file_bytes: must be > 0"}},
		{"negative files", func(c *Config) { c.MaxFiles = -1 }, []string{"max_files: must be >= 0"}},
		{"zero queue", func(c *Config) { c.SendingQueue.QueueSize = 0 }, []string{"sending_queue.queue_size: must be > 0"}},
		{"zero flush", func(c *Config) { c.FlushInterval = 0 }, []string{"flush_interval: must be > 0"}},
		{"several", func(c *Config) { c.SendingQueue.QueueSize = -1; c.MaxFileBytes = -1 }, []string{"sending_queue.queue_size:", "max_file_bytes:"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			c.mutate(&cfg)
			err := cfg.Validate()
			if c.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %v", c.wantErr)
			}
			for _, w := range c.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
}

func TestNewRejectsInvalidConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.SendingQueue.QueueSize = 0
	if _, err := New(cfg, telemetry.Settings{}); err == nil || !strings.Contains(err.Error(), "queue_size") {
		t.Fatalf("New with invalid config: %v", err)
	}
}
