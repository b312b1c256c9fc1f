package scorer

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/queue"
)

// loadConfig decodes a testdata YAML file over the defaults, strictly.
func loadConfig(t *testing.T, name string) (Config, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "config", name))
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

func TestDefaultConfig(t *testing.T) {
	cfg := DefaultConfig()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
	if cfg.SendingQueue.QueueSize != 1000 || cfg.SendingQueue.NumConsumers != 2 || cfg.MetricTimeout != 5*time.Second {
		t.Errorf("defaults = %+v", cfg)
	}
	var names []string
	for _, m := range cfg.Metrics {
		names = append(names, m.Name)
	}
	want := []string{"latency", "failure", "tool_call_count", "tool_error_rate", "repeated_tool_call_rate", "tool_args_valid", "unsupported_facts"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("default metrics = %v, want %v", names, want)
	}
	if _, err := NewRegistry().Build(cfg.Metrics); err != nil {
		t.Errorf("default metrics do not build: %v", err)
	}
}

func TestConfigFiles(t *testing.T) {
	cases := []struct {
		file    string
		wantErr string // empty: valid
	}{
		{"valid.yaml", ""},
		{"zero_queue.yaml", "sending_queue.queue_size: must be > 0"},
		{"negative_consumers.yaml", "sending_queue.num_consumers: must be > 0"},
		{"zero_timeout.yaml", "metric_timeout: must be > 0"},
		{"duplicate_metric.yaml", `metrics[2].name: duplicate metric "latency"`},
		{"empty_metric_name.yaml", "metrics[0].name: must not be empty"},
		{"typo_key.yaml", "queue_sise"},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			cfg, err := loadConfig(t, tc.file)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error = %v, want one containing %q (config %+v)", err, tc.wantErr, cfg)
			}
		})
	}
}

func TestConfigFileValid(t *testing.T) {
	cfg, err := loadConfig(t, "valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SendingQueue.QueueSize != 50 || cfg.SendingQueue.NumConsumers != 4 || cfg.MetricTimeout != 250*time.Millisecond || len(cfg.Metrics) != 2 {
		t.Fatalf("decoded %+v", cfg)
	}
	ms, err := NewRegistry().Build(cfg.Metrics)
	if err != nil {
		t.Fatal(err)
	}
	if m := ms[1].(*toolArgsValid); m.maxReasons != 5 || m.schemas.size != 64 {
		t.Errorf("tool_args_valid params not applied: %+v", m)
	}
}

func TestConfigValidateJoinsErrors(t *testing.T) {
	err := Config{SendingQueue: queue.Config{Enabled: true}}.Validate()
	for _, key := range []string{"sending_queue.queue_size", "sending_queue.num_consumers", "metric_timeout"} {
		if err == nil || !strings.Contains(err.Error(), key+":") {
			t.Errorf("error %v does not name %s", err, key)
		}
	}
}
