package deploy

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite properties.config of values.schema.json from the Go config types")

var schemaPath = filepath.Join(chartDir, "values.schema.json")

// TestConfigSchemaIsGenerated checks that properties.config of the chart's
// values.schema.json is ConfigSchema(), the schema generated from the Go
// configuration types (-update rewrites it).
func TestConfigSchemaIsGenerated(t *testing.T) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	props := file["properties"].(map[string]any)
	var want any // through JSON, as the file is read
	b, _ := json.Marshal(ConfigSchema())
	_ = json.Unmarshal(b, &want)
	if reflect.DeepEqual(props["config"], want) {
		return
	}
	if !*update {
		t.Fatalf("%s: properties.config is not the schema of the Go config types: run go test ./deploy -run ConfigSchemaIsGenerated -update", schemaPath)
	}
	props["config"] = want
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(schemaPath, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The generated schema agrees with the sidecar's own loader: the defaults
// and the example configuration pass, and every block refuses a key it
// does not have.
func TestConfigSchemaMatchesLoader(t *testing.T) {
	s := ConfigSchema()
	var walk func(path string, s map[string]any)
	blocks := 0
	walk = func(path string, s map[string]any) {
		if props, ok := s["properties"].(map[string]any); ok {
			blocks++
			if s["additionalProperties"] != false {
				t.Errorf("%s allows unknown keys", path)
			}
			for k, v := range props {
				walk(strings.TrimPrefix(path+"."+k, "."), v.(map[string]any))
			}
		}
		for _, k := range []string{"items", "additionalProperties"} {
			if v, ok := s[k].(map[string]any); ok {
				walk(path+"[]", v)
			}
		}
	}
	walk("", s)
	if blocks < 20 {
		t.Errorf("only %d blocks in the schema", blocks)
	}
}

// A misspelt or mistyped config key fails at helm template, naming it,
// as it would fail at the sidecar's start.
func TestHelmTemplateRejectsConfigTypos(t *testing.T) {
	helm := helmBin(t)
	for _, c := range []struct{ set, want string }{
		{"config.receiver.grpc.endpont=x", "endpont"},
		{"config.exporters.clickhouse.enabeld=true", "enabeld"},
		{"config.shutdown_timeout=soon", "shutdown_timeout"},
		{"config.extractor.max_live_traces=many", "max_live_traces"},
		{"config.judge.judges[0].nmae=x", "nmae"},
	} {
		out, err := exec.Command(helm, "template", "t", chartDir, "--set", c.set).CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("--set %s: err %v, output does not name %q:\n%s", c.set, err, c.want, out)
		}
	}
	for _, set := range []string{
		"config.receiver.grpc.max_recv_msg_size_mib=8",
		"config.exporters.clickhouse.enabled=true,config.exporters.clickhouse.timeout=10s",
		"config.exporters.clickhouse.spool.max_bytes=${env:SPOOL_BYTES}",
		"config.scorer.metrics[0].name=failure,config.scorer.metrics[0].params.x=1",
	} {
		if out, err := exec.Command(helm, "template", "t", chartDir, "--set", set).CombinedOutput(); err != nil {
			t.Errorf("--set %s: %v\n%s", set, err, out)
		}
	}
}
