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

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml3 "gopkg.in/yaml.v3"

	"github.com/evalsidecar/evalsidecar/internal/config"
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

// The generated schema agrees with the sidecar's own loader: every block
// refuses keys it does not have; config.example.yaml (every key with its
// default) and the chart's rendered configurations pass; what the loader
// rejects as an unknown key or a wrong type, the schema rejects too.
func TestConfigSchemaMatchesLoader(t *testing.T) {
	s := ConfigSchema()
	blocks := 0
	var walk func(path string, s map[string]any)
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

	b, _ := json.Marshal(s)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("config.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("config.json")
	if err != nil {
		t.Fatal(err)
	}
	check := func(name, text string, wantValid bool) {
		t.Helper()
		var v any
		if err := yaml3.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		jb, _ := json.Marshal(v) // YAML → JSON values, as Helm validates
		inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(jb))
		env := map[string]string{"SPOOL": "1048576", "TIMEOUT": "10s"}
		_, loaderErr := config.Parse([]byte(text), func(k string) (string, bool) { v, ok := env[k]; return v, ok })
		if err := sch.Validate(inst); (err == nil) != wantValid {
			t.Errorf("%s: schema says %v, want valid=%v", name, err, wantValid)
		}
		if (loaderErr == nil) != wantValid {
			t.Errorf("%s: the sidecar's loader says %v, want valid=%v", name, loaderErr, wantValid)
		}
	}
	example, err := os.ReadFile(filepath.Join("..", "config.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	check("config.example.yaml", string(example), true)
	check("env references", "exporters:\n  clickhouse:\n    spool:\n      max_bytes: ${env:SPOOL}\n    timeout: ${env:TIMEOUT}\n", true)
	for name, text := range map[string]string{
		"unknown key":           "receiver:\n  grpc:\n    endpont: x\n",
		"unknown top-level":     "recevier: {}\n",
		"renamed key":           "exporters:\n  clickhouse:\n    dsn: x\n",
		"key in a list item":    "scorer:\n  metrics:\n    - name: failure\n      parms: {}\n",
		"duration typo":         "shutdown_timeout: 20 s\n",
		"number as text":        "extractor:\n  max_live_traces: many\n",
		"boolean as text":       "exporters:\n  jsonl:\n    enabled: sometimes\n",
		"list where a map goes": "receiver: [a]\n",
		"number as duration":    "shutdown_timeout: 20\n",
	} {
		check(name, text, false)
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
