package config

import (
	"reflect"
	"strings"
	"testing"
	"time"

	chexp "github.com/evalsidecar/evalsidecar/exporter/clickhouse"
	"github.com/evalsidecar/evalsidecar/exporter/jsonl"
	"github.com/evalsidecar/evalsidecar/exporter/otelevents"
	promexp "github.com/evalsidecar/evalsidecar/exporter/prometheus"
)

// TestExportersBlock loads exporters blocks through Parse: a block is
// decoded over its exporter's defaults, the keys are the factories'
// types, and errors name the key path.
func TestExportersBlock(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		wantErr string // a substring; empty means success
		check   func(t *testing.T, e Exporters)
	}{
		{
			name: "a block over its defaults, the others untouched",
			yaml: "exporters:\n  jsonl:\n    max_files: 9\n",
			check: func(t *testing.T, e Exporters) {
				got, def := *ExporterConfig[jsonl.Config](e), jsonl.DefaultConfig()
				if got.MaxFiles != 9 || got.MaxFileBytes != def.MaxFileBytes || !got.Enabled {
					t.Errorf("jsonl = %+v", got)
				}
				if got := *ExporterConfig[promexp.Config](e); got != promexp.DefaultConfig() {
					t.Errorf("prometheus = %+v, want the defaults", got)
				}
			},
		},
		{
			name: "an empty exporters block keeps every default",
			yaml: "exporters:\n",
			check: func(t *testing.T, e Exporters) {
				if !reflect.DeepEqual(e, Default().Exporters) {
					t.Errorf("exporters = %v, want the defaults", e)
				}
			},
		},
		{
			name: "an empty exporter block keeps its defaults",
			yaml: "exporters:\n  otel_events:\n",
			check: func(t *testing.T, e Exporters) {
				if got := ExporterConfig[otelevents.Config](e); !reflect.DeepEqual(*got, otelevents.DefaultConfig()) {
					t.Errorf("otel_events = %+v", got)
				}
			},
		},
		{
			name: "nested keys of a block",
			yaml: "exporters:\n  clickhouse:\n    enabled: true\n    endpoint: tcp://127.0.0.1:9000\n    timeout: 3s\n",
			check: func(t *testing.T, e Exporters) {
				if got := ExporterConfig[chexp.Config](e); !got.Enabled || got.Timeout != 3*time.Second || got.Endpoint != "tcp://127.0.0.1:9000" {
					t.Errorf("clickhouse = %+v", got)
				}
			},
		},
		{name: "an unknown exporter", yaml: "exporters:\n  jsonll:\n    enabled: true\n", wantErr: "line 2: exporters.jsonll is not a known key (did you mean exporters.jsonl?)"},
		{name: "an unknown key in a block", yaml: "exporters:\n  jsonl:\n    max_filez: 1\n", wantErr: "line 3: exporters.jsonl.max_filez is not a known key (did you mean exporters.jsonl.max_files?)"},
		{name: "a renamed key in a block", yaml: "exporters:\n  jsonl:\n    queue_size: 1\n", wantErr: "exporters.jsonl.queue_size: renamed to sending_queue.queue_size"},
		{name: "a type error names the key", yaml: "exporters:\n  jsonl:\n    max_files: many\n", wantErr: "line 3 (exporters.jsonl.max_files)"},
		{name: "a block that is not a mapping", yaml: "exporters:\n  prometheus: 5\n", wantErr: "line 2 (exporters.prometheus)"},
		{name: "validation names the block", yaml: "exporters:\n  jsonl:\n    max_files: -1\n", wantErr: "exporters.jsonl.max_files: must be >= 0, got -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.yaml), nil)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, cfg.Exporters)
		})
	}
}

// TestExporterFactories checks that every factory has its own key and
// that the exporters block holds exactly one block per factory, of its
// factory's config type, each a separate value from one Default to the
// next, and that Validate reports a configuration missing a block.
func TestExporterFactories(t *testing.T) {
	a, b := Default().Exporters, Default().Exporters
	seen := map[string]bool{}
	for _, f := range ExporterFactories() {
		typ := f.Type()
		if seen[typ] {
			t.Errorf("two factories of type %q", typ)
		}
		seen[typ] = true
		if reflect.TypeOf(a[typ]) != reflect.TypeOf(f.CreateDefaultConfig()) {
			t.Errorf("exporters.%s is a %T, want %T", typ, a[typ], f.CreateDefaultConfig())
		}
		if a[typ] == b[typ] {
			t.Errorf("exporters.%s: two Defaults share one block", typ)
		}
	}
	if len(a) != len(seen) {
		t.Errorf("%d blocks for %d factories", len(a), len(seen))
	}
	cfg := Default()
	delete(cfg.Exporters, "jsonl")
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "exporters.jsonl: missing") {
		t.Errorf("a configuration without the jsonl block: %v", err)
	}
}
