package stage

import (
	"strings"
	"testing"
)

// TestCalibrationFloorNamesAJudgeMetric: a floor for a metric the judge
// does not score would never be compared with an agreement, so it is a
// configuration error naming the key.
func TestCalibrationFloorNamesAJudgeMetric(t *testing.T) {
	for _, c := range []struct {
		name, doc, want string
	}{
		{"configured metric", `
judges: [{name: j, provider: openai, model: m, api_key: k}]
metrics: [{name: coherence}]
calibration: {floor: {coherence: 0.6}}`, ""},
		{"unknown metric", `
judges: [{name: j, provider: openai, model: m, api_key: k}]
metrics: [{name: pairwise_coherence}]
calibration: {floor: {coherence: 0.6, fluency: 0.5}}`, "calibration.floor.coherence: not a judge metric"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := parseConfig(t, c.doc).Validate()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "calibration.floor.fluency")):
				t.Fatalf("error %v, want %q and the fluency key", err, c.want)
			}
		})
	}
}
