package offline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/evalsidecar/evalsidecar/scorer/aggregate"
)

// LoadCriteria reads a test_config.json-style file. A criterion is a
// threshold, or an object with "threshold" and metric params (for example
// ADK's {"threshold": 1.0, "match_type": "IN_ORDER"}); params are returned
// by metric id. An empty path has no criteria.
func LoadCriteria(path string) ([]aggregate.Criterion, map[string]map[string]any, error) {
	if path == "" {
		return nil, nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("criteria: %w", err)
	}
	var file struct {
		Criteria map[string]json.RawMessage `json:"criteria"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, nil, fmt.Errorf("criteria %s: %w", path, err)
	}
	if len(file.Criteria) == 0 {
		return nil, nil, fmt.Errorf("criteria %s: no \"criteria\" object", path)
	}
	var out []aggregate.Criterion
	params := map[string]map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(file.Criteria)) {
		raw := bytes.TrimSpace(file.Criteria[k])
		var th float64
		if len(raw) > 0 && raw[0] == '{' {
			var obj map[string]any
			if err := json.Unmarshal(raw, &obj); err != nil {
				return nil, nil, fmt.Errorf("criteria %s: %q: %w", path, k, err)
			}
			t, ok := obj["threshold"].(float64)
			if !ok {
				return nil, nil, fmt.Errorf("criteria %s: %q: missing numeric \"threshold\"", path, k)
			}
			th = t
			delete(obj, "threshold")
			if len(obj) > 0 {
				params[k] = obj
			}
		} else if err := json.Unmarshal(raw, &th); err != nil {
			return nil, nil, fmt.Errorf("criteria %s: %q: must be a number or an object with \"threshold\"", path, k)
		}
		if math.IsNaN(th) || th < 0 {
			return nil, nil, fmt.Errorf("criteria %s: %q: threshold must be >= 0", path, k)
		}
		out = append(out, aggregate.Criterion{Metric: k, Threshold: th})
	}
	return out, params, nil
}
