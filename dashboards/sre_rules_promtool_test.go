package dashboards

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// toolPath returns the binary named by env (or found on PATH as name). In
// CI (CI=true) a missing binary fails the test; elsewhere it skips.
func toolPath(t *testing.T, env, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not set and %s is not on PATH (scripts/test installs it)", env, name)
	}
	t.Skipf("%s not set and %s not on PATH; run scripts/test", env, name)
	return ""
}

// TestPromtoolCheckRules runs `promtool check rules` on the committed rule
// file and on a variant with short windows.
func TestPromtoolCheckRules(t *testing.T) {
	promtool := toolPath(t, "EVALSIDECAR_PROMTOOL_BIN", "promtool")
	short := DefaultRuleParams()
	short.Interval, short.RateWindow, short.RecentWindow = 1e9, 10e9, 20e9
	short.BaselineWindow, short.BaselineOffset, short.For = 60e9, 20e9, 5e9
	b, err := RenderRules(short)
	if err != nil {
		t.Fatal(err)
	}
	variant := filepath.Join(t.TempDir(), "short.rules.yaml")
	if err := os.WriteFile(variant, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{rulesFile, variant} {
		out, err := exec.Command(promtool, "check", "rules", f).CombinedOutput()
		if err != nil {
			t.Errorf("promtool check rules %s: %v\n%s", f, err, out)
		}
	}
}

// TestPromtoolTestRules runs the alert unit tests in
// deploy/prometheus/tests: each regression alert fires on a real
// regression, stays quiet on small-sample dips and noise, and resolves
// after recovery; each operational alert fires on its condition.
func TestPromtoolTestRules(t *testing.T) {
	promtool := toolPath(t, "EVALSIDECAR_PROMTOOL_BIN", "promtool")
	files, err := filepath.Glob(filepath.Join("..", "deploy", "prometheus", "tests", "*.test.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule tests found: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command(promtool, "test", "rules", f).CombinedOutput()
			if err != nil {
				t.Errorf("promtool test rules %s: %v\n%s", f, err, out)
			}
		})
	}
}
