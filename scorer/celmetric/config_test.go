package celmetric_test

import (
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/config"
)

// TestStartupCompileError loads a sidecar config: a broken CEL metric is
// refused at start with the key, the metric and the position.
func TestStartupCompileError(t *testing.T) {
	yaml := `
scorer:
  metrics:
    - name: essential_tools_present
      type: cel
      params:
        expression: double(["tool1"].filter(t, t in predicted_trajectory.map(c, c.tool_name)).size()) / 1.0
    - name: broken
      type: cel
      params:
        expression: 'size(response) > "x"'
`
	_, err := config.Parse([]byte(yaml), func(string) (string, bool) { return "", false })
	if err == nil {
		t.Fatal("a broken expression was accepted")
	}
	for _, want := range []string{"scorer.metrics", `metric "broken"`, "line 1, column 16", "no matching overload"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := config.Parse([]byte(yaml[:strings.Index(yaml, "    - name: broken")]), func(string) (string, bool) { return "", false }); err != nil {
		t.Errorf("valid CEL metric refused: %v", err)
	}
}
