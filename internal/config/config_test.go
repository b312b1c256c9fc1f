package config

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
)

func examplePath(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "config.example.yaml")
}

// TestExampleEqualsDefaults keeps config.example.yaml and Default() in step:
// the example must load, validate and equal the defaults.
func TestExampleEqualsDefaults(t *testing.T) {
	cfg, err := Load(examplePath(t))
	if err != nil {
		t.Fatal(err)
	}
	// Compared in YAML form, where an empty map and a nil map are both {}.
	got, _ := yaml.Marshal(cfg)
	exp, _ := yaml.Marshal(Default())
	if !bytes.Equal(got, exp) {
		t.Fatalf("config.example.yaml differs from Default():\n--- example\n%s\n--- default\n%s", got, exp)
	}
}

// TestExampleListsEveryKey checks that every key of the defaults appears in
// the example, so a new option cannot go undocumented.
func TestExampleListsEveryKey(t *testing.T) {
	data, err := os.ReadFile(examplePath(t))
	if err != nil {
		t.Fatal(err)
	}
	var example, defaults yaml.Node
	if err := yaml.Unmarshal(data, &example); err != nil {
		t.Fatal(err)
	}
	b, _ := yaml.Marshal(Default())
	if err := yaml.Unmarshal(b, &defaults); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	collectKeys(example.Content[0], "", have)
	want := map[string]bool{}
	collectKeys(defaults.Content[0], "", want)
	// Paths placed under storage.directory are shown commented out: set,
	// they would no longer follow it.
	derived := map[string]string{"exporters.jsonl.directory": "jsonl:", "exporters.clickhouse.spool.directory": "spool:"}
	for k := range want {
		if block, ok := derived[k]; ok {
			if have[k] || !regexp.MustCompile(`(?s)`+block+`.*\n\s+# directory: .*default: storage\.directory`).Match(data) {
				t.Errorf("config.example.yaml must show %s commented out, with its default under storage.directory", k)
			}
			continue
		}
		if !have[k] {
			t.Errorf("config.example.yaml lacks %s", k)
		}
	}
	// Every key line carries a comment, except list items and nested blocks.
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "-") || strings.HasSuffix(trimmed, ":") ||
			strings.HasPrefix(trimmed, "params:") || strings.Contains(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "      ") && isTLSKey(trimmed) { // repeated TLS block refers to the first one
			continue
		}
		t.Errorf("config.example.yaml line %d has no comment: %s", i+1, line)
	}
}

func isTLSKey(s string) bool {
	for _, k := range []string{"key_file:", "client_ca_file:", "min_version:"} {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

func collectKeys(n *yaml.Node, path string, out map[string]bool) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := join(path, n.Content[i].Value)
			out[p] = true
			collectKeys(n.Content[i+1], p, out)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			collectKeys(c, path+"[]", out)
		}
	}
}

func TestParseErrorsNameKeys(t *testing.T) {
	env := func(k string) (string, bool) { return map[string]string{"TOKEN": "abc"}[k], k == "TOKEN" }
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown key", "receiver:\n  grpc:\n    endpont: x\n", "receiver.grpc.endpont is not a known key"},
		{"bad duration", "extractor:\n  quiet_period: later\n", "extractor.quiet_period"},
		{"invalid value", "extractor:\n  max_live_traces: 0\n", "extractor.max_live_traces"},
		{"invalid log level", "log:\n  level: loud\n", "log.level"},
		{"unknown metric", "scorer:\n  metrics:\n    - name: nope\n", "nope"},
		{"bad pass rule", "scorer:\n  metrics:\n    - name: latency\n      pass: {threshold: 30, comparison: '=<'}\n", "scorer.metrics[0].pass.comparison"},
		{"bad unit", "scorer:\n  metrics:\n    - name: latency\n      unit: ms\n", "scorer.metrics[0].unit"},
		{"missing env", "receiver:\n  auth:\n    bearer_token: ${env:MISSING}\n", "MISSING is not set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), env)
			if err == nil {
				t.Fatalf("no error, want one naming %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not name %q", err, tt.want)
			}
		})
	}
	cfg, err := Parse([]byte("receiver:\n  auth:\n    bearer_token: ${env:TOKEN}\n"), env)
	if err != nil || cfg.Receiver.Auth.BearerToken != "abc" {
		t.Fatalf("env expansion: %v, token %q", err, cfg.Receiver.Auth.BearerToken)
	}
	// Plain references take the type of their key; quoted ones stay text.
	nums := func(k string) (string, bool) {
		v, ok := map[string]string{"N": "7", "D": "90s", "B": "false"}[k]
		return v, ok
	}
	cfg, err = Parse([]byte("extractor:\n  max_live_traces: ${env:N}\nshutdown_timeout: ${env:D}\nexporters:\n  jsonl:\n    enabled: ${env:B}\nlog:\n  level: \"${env:L:-debug}\"\n"), nums)
	jl := ExporterConfig[jsonl.Config](cfg.Exporters)
	if err != nil || cfg.Extractor.MaxLiveTraces != 7 || cfg.ShutdownTimeout != 90*time.Second || jl.Enabled || cfg.Log.Level != "debug" {
		t.Fatalf("typed env expansion: %v, %d %s %v %q", err, cfg.Extractor.MaxLiveTraces, cfg.ShutdownTimeout, jl.Enabled, cfg.Log.Level)
	}
}

// TestEnvFillsEveryType checks that ${env:X} fills integer, duration,
// boolean and string settings, and that a quoted reference stays a string.
func TestEnvFillsEveryType(t *testing.T) {
	vars := map[string]string{"N": "7", "D": "750ms", "B": "false", "NUM_TOKEN": "123456", "BYTES": "1048576"}
	env := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	cfg, err := Parse([]byte(`
scorer:
  sending_queue:
    num_consumers: ${env:N}
    queue_size: ${env:N:-100}0
extractor:
  quiet_period: ${env:D}
  max_buffered_bytes: ${env:BYTES}
exporters:
  jsonl:
    enabled: ${env:B}
receiver:
  auth:
    bearer_token: ${env:NUM_TOKEN}
  http:
    endpoint: "127.0.0.1:${env:N}"
`), env)
	if err != nil {
		t.Fatal(err)
	}
	got := []any{cfg.Scorer.SendingQueue.NumConsumers, cfg.Scorer.SendingQueue.QueueSize, cfg.Extractor.QuietPeriod,
		cfg.Extractor.MaxBufferedBytes, ExporterConfig[jsonl.Config](cfg.Exporters).Enabled, string(cfg.Receiver.Auth.BearerToken), cfg.Receiver.HTTP.Endpoint}
	want := []any{7, 70, 750 * time.Millisecond, int64(1 << 20), false, "123456", "127.0.0.1:7"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("setting %d = %v, want %v", i, got[i], want[i])
		}
	}
}
