package config

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestRenamedKeysNameTheirSuccessor loads, for every renamed key, a file
// that sets it, and checks the error names the key and its successor, and
// that the successor is a key of the configuration.
func TestRenamedKeysNameTheirSuccessor(t *testing.T) {
	var defaults yaml.Node
	b, _ := yaml.Marshal(Default())
	if err := yaml.Unmarshal(b, &defaults); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	collectKeys(defaults.Content[0], "", known)
	for old, to := range renamedKeys {
		t.Run(old, func(t *testing.T) {
			parts := strings.Split(old, ".")
			var doc strings.Builder
			for i, p := range parts {
				doc.WriteString(strings.Repeat("  ", i) + p + ":")
				if i < len(parts)-1 {
					doc.WriteString("\n")
				}
			}
			doc.WriteString(" 1\n")
			_, err := Parse([]byte(doc.String()), nil)
			want := old + ": renamed to " + to
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("error %v, want %q", err, want)
			}
			parent := strings.Join(parts[:len(parts)-1], ".")
			successor := join(parent, strings.Fields(to)[0])
			if !known[successor] {
				t.Errorf("successor %s is not a key of the configuration", successor)
			}
			if known[old] {
				t.Errorf("%s is still a key of the configuration", old)
			}
		})
	}
}

func TestRemovedKeysAreGone(t *testing.T) {
	var defaults yaml.Node
	b, _ := yaml.Marshal(Default())
	if err := yaml.Unmarshal(b, &defaults); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	collectKeys(defaults.Content[0], "", known)
	for old := range removedKeys {
		if known[old] {
			t.Errorf("%s is still a key of the configuration", old)
		}
		if _, ok := renamedKeys[old]; ok {
			t.Errorf("%s is both renamed and removed", old)
		}
	}
}

func TestRenamedKeyError(t *testing.T) {
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{
			name: "jitter",
			yaml: "exporters:\n  clickhouse:\n    retry_on_failure:\n      jitter: 0.2\n",
			want: []string{"line 4: exporters.clickhouse.retry_on_failure.jitter: renamed to randomization_factor"},
		},
		{
			name: "removed",
			yaml: "exporters:\n  otel_events:\n    export_interval: 1s\n",
			want: []string{"line 3: exporters.otel_events.export_interval: removed: a free sender"},
		},
		{
			name: "renamed and unknown keys together",
			yaml: "scorer:\n  workers: 4\n  wokers: 4\n",
			want: []string{"scorer.workers: renamed to sending_queue.num_consumers", "scorer.wokers is not a known key"},
		},
		{
			name: "a list item's key is not mistaken for a renamed one",
			yaml: "judge:\n  judges:\n    - name: a\n      queue_size: 1\n",
			want: []string{"judge.judges[0].queue_size is not a known key"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), nil)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
