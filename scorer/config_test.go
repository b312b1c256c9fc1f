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
	if len(cfg.Metrics) != 0 {
		t.Errorf("the engine's defaults name metrics: %v (the catalog's defaults belong to the sidecar config)", cfg.Metrics)
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
	want := MetricConfig{Name: "tool_args_valid", Params: map[string]any{"max_reasons": 5, "schema_cache_size": 64}}
	if !reflect.DeepEqual(cfg.Metrics[1], want) {
		t.Errorf("metrics[1] = %+v, want %+v", cfg.Metrics[1], want)
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
