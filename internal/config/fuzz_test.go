package config

import (
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary YAML and --set overrides to the loader: it
// never panics, a configuration it accepts passes Validate, and every
// problem it reports is on a line of its own.
func FuzzParse(f *testing.F) {
	example, _ := os.ReadFile(examplePath(f))
	f.Add(string(example), "log.level=debug")
	f.Add("receiver:\n  grpc:\n    endpont: x\n", "exporters.clickhouse.timeot=3s")
	f.Add("scorer:\n  metrics:\n    - name: failure\n", "scorer.metrics=[{name: latency}]")
	f.Add("a: &x {b: 1}\nc: *x\n", "receiver=")
	f.Add("[1, 2]", "=x")
	f.Fuzz(func(t *testing.T, data, set string) {
		cfg, err := Parse([]byte(data), func(string) (string, bool) { return "1", true }, set)
		if err == nil {
			if verr := cfg.Validate(); verr != nil {
				t.Fatalf("accepted a configuration Validate refuses: %v", verr)
			}
			return
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if strings.TrimSpace(line) == "" {
				t.Fatalf("empty line in the error:\n%q", err.Error())
			}
		}
	})
}
