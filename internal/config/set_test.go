package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
)

func TestSetOverrides(t *testing.T) {
	file := "receiver:\n  grpc:\n    endpoint: 0.0.0.0:4317\nlog:\n  level: warn\n"
	cfg, err := Parse([]byte(file), nil,
		"receiver.grpc.endpoint=127.0.0.1:1234",             // replaces the file's value
		"log.format=json",                                   // next to a key of the file
		"exporters.clickhouse.enabled=true",                 // creates the path
		"exporters.clickhouse.timeout=3s",                   // typed values
		"scorer.metrics=[{name: failure}, {name: latency}]", // flow YAML
		"shutdown_timeout=5s",
	)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Receiver.GRPC.Endpoint != "127.0.0.1:1234" || cfg.Log.Level != "warn" || cfg.Log.Format != "json" {
		t.Errorf("receiver/log = %q %q %q", cfg.Receiver.GRPC.Endpoint, cfg.Log.Level, cfg.Log.Format)
	}
	if ch := ExporterConfig[chexp.Config](cfg.Exporters); !ch.Enabled || ch.Timeout != 3*time.Second || cfg.ShutdownTimeout != 5*time.Second {
		t.Errorf("clickhouse/shutdown = %v %s %s", ch.Enabled, ch.Timeout, cfg.ShutdownTimeout)
	}
	if len(cfg.Scorer.Metrics) != 2 || cfg.Scorer.Metrics[1].Name != "latency" {
		t.Errorf("scorer.metrics = %+v", cfg.Scorer.Metrics)
	}
	// The last override of a key wins; a later one can replace a scalar
	// parent with a mapping.
	cfg, err = Parse([]byte("log:\n"), nil, "log.level=debug", "log.level=error")
	if err != nil || cfg.Log.Level != "error" {
		t.Errorf("repeated --set: %v, level %q", err, cfg.Log.Level)
	}
}

func TestSetErrorsNameTheOverride(t *testing.T) {
	for _, c := range []struct {
		set  string
		want []string
	}{
		{"receiver.grpc.endpont=x", []string{"--set receiver.grpc.endpont=x: receiver.grpc.endpont is not a known key (did you mean receiver.grpc.endpoint?)"}},
		{"shutdown_timeout=soon", []string{"--set shutdown_timeout=soon:", "soon"}},
		{"log.level=loud", []string{"log.level", "loud"}},
		{"noequals", []string{"--set noequals: want key.path=value"}},
		{"log..level=x", []string{"empty key"}},
		{"log.level=[", []string{"--set log.level=[: value"}},
	} {
		_, err := Parse(nil, nil, c.set)
		if err == nil {
			t.Errorf("--set %s: no error", c.set)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("--set %s: error %q lacks %q", c.set, err, w)
			}
		}
	}
}

// Every problem is reported, one per line, each with its key path: unknown
// keys (with a suggestion when one is close), type errors and invalid
// values together.
func TestParseReportsEveryProblem(t *testing.T) {
	file := "receiver:\n  grpc:\n    endpont: x\nextractor:\n  quiet_period: later\nlog:\n  levle: info\n  format: fancy\nshutdown_timeout: 0s\nnothing_like_this: 1\n"
	_, err := Parse([]byte(file), nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"line 3: receiver.grpc.endpont is not a known key (did you mean receiver.grpc.endpoint?)",
		"line 7: log.levle is not a known key (did you mean log.level?)",
		"line 10: nothing_like_this is not a known key\n",
		"line 5 (extractor.quiet_period)",
		"log.format: \"fancy\"",
		"shutdown_timeout: must be > 0",
	} {
		if !strings.Contains(err.Error()+"\n", want) {
			t.Errorf("error lacks %q:\n%s", want, err)
		}
	}
}

// storage.directory moves every on-disk path the configuration does not
// set itself.
func TestStorageDirectoryPlacesFiles(t *testing.T) {
	for _, c := range []struct {
		name, file        string
		sets              []string
		wantJSONL, wantCH string
	}{
		{name: "defaults", wantJSONL: "./evalsidecar-data", wantCH: "evalsidecar-data/clickhouse-spool"},
		{name: "data dir", sets: []string{"storage.directory=/data"}, wantJSONL: "/data", wantCH: "/data/clickhouse-spool"},
		{name: "file sets jsonl", file: "storage:\n  directory: /data\nexporters:\n  jsonl:\n    directory: /out\n", wantJSONL: "/out", wantCH: "/data/clickhouse-spool"},
		{name: "file sets spool", file: "exporters:\n  clickhouse:\n    spool:\n      directory: /spool\n", sets: []string{"storage.directory=/data"}, wantJSONL: "/data", wantCH: "/spool"},
		{name: "memory spool", file: "exporters:\n  clickhouse:\n    spool:\n      directory: \"\"\n", sets: []string{"storage.directory=/data"}, wantJSONL: "/data", wantCH: ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Parse([]byte(c.file), nil, c.sets...)
			if err != nil {
				t.Fatal(err)
			}
			if got := ExporterConfig[jsonl.Config](cfg.Exporters).Directory; filepath.Clean(got) != filepath.Clean(c.wantJSONL) {
				t.Errorf("jsonl.directory = %q, want %q", got, c.wantJSONL)
			}
			if got := ExporterConfig[chexp.Config](cfg.Exporters).Spool.Directory; got != c.wantCH {
				t.Errorf("spool.directory = %q, want %q", got, c.wantCH)
			}
		})
	}
}
