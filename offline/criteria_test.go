package offline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
)

func TestLoadCriteria(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		want     []aggregate.Criterion
		params   map[string]map[string]any
		errParts []string
	}{
		{
			name: "thresholds and params, sorted by metric",
			file: `{"criteria": {"tool_trajectory_avg_score": {"threshold": 1.0, "match_type": "IN_ORDER"}, "response_match_score": 0.8}}`,
			want: []aggregate.Criterion{
				{Metric: "response_match_score", Threshold: 0.8},
				{Metric: "tool_trajectory_avg_score", Threshold: 1},
			},
			params: map[string]map[string]any{"tool_trajectory_avg_score": {"match_type": "IN_ORDER"}},
		},
		{name: "object without params", file: `{"criteria": {"exact_match": {"threshold": 1}}}`, want: []aggregate.Criterion{{Metric: "exact_match", Threshold: 1}}, params: map[string]map[string]any{}},
		{name: "not JSON", file: `criteria:`, errParts: []string{"criteria "}},
		{name: "no criteria object", file: `{"thresholds": {}}`, errParts: []string{`no "criteria" object`}},
		{name: "string threshold", file: `{"criteria": {"exact_match": "high"}}`, errParts: []string{`"exact_match": must be a number`}},
		{name: "object without threshold", file: `{"criteria": {"bleu": {"tokenize": "13a"}}}`, errParts: []string{`"bleu": missing numeric "threshold"`}},
		{name: "negative threshold", file: `{"criteria": {"bleu": -0.5}}`, errParts: []string{`"bleu": threshold must be >= 0`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "test_config.json")
			if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			got, params, err := LoadCriteria(path)
			if tt.errParts != nil {
				if err == nil {
					t.Fatalf("no error, want one containing %q", tt.errParts)
				}
				for _, p := range tt.errParts {
					if !strings.Contains(err.Error(), p) {
						t.Errorf("error %q does not contain %q", err, p)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("criteria = %+v, want %+v", got, tt.want)
			}
			if !reflect.DeepEqual(params, tt.params) {
				t.Errorf("params = %v, want %v", params, tt.params)
			}
		})
	}
}

func TestLoadCriteriaNoFile(t *testing.T) {
	got, params, err := LoadCriteria("")
	if got != nil || params != nil || err != nil {
		t.Errorf("empty path: %v %v %v, want nothing", got, params, err)
	}
	if _, _, err := LoadCriteria(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}
