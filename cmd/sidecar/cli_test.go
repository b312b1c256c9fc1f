package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestMain removes the sidecar binary the process tests build
// (buildSidecar).
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the sidecar binary the process tests build once, without the
// race detector, as users run it (memory figures depend on it).
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildSidecar builds the sidecar binary, once for all tests.
func buildSidecar(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "evalsidecar-bin"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "evalsidecar")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// runCLI runs the command line in-process and returns its exit code and
// output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut syncBuffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// --help, -h and help list every command once, on one line of its own.
func TestHelpListsEveryCommand(t *testing.T) {
	for _, flag := range []string{"--help", "-h", "-help", "help"} {
		code, out, _ := runCLI(flag)
		if code != 0 {
			t.Errorf("%s: exit %d", flag, code)
		}
		for _, c := range commands() {
			lines := regexp.MustCompile(`(?m)^  `+c.name+` +\S.*$`).FindAllString(out, -1)
			if len(lines) != 1 {
				t.Errorf("%s: command %s on %d lines, want 1:\n%s", flag, c.name, len(lines), out)
			}
		}
		for _, f := range []string{"--set key.path=value", "-config FILE", "-data-dir DIR"} {
			if !strings.Contains(out, f) {
				t.Errorf("%s: help does not mention %s", flag, f)
			}
		}
	}
	if code, _, errOut := runCLI("frobnicate"); code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown command: exit %d, %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"version", "--version", "-version", "-v"} {
		code, out, errOut := runCLI(arg)
		if code != 0 || out != "evalsidecar "+version+"\n" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", arg, code, out, errOut)
		}
	}
}

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sidecar.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// validate exits 0 on a valid configuration and 1 with every problem, one
// per line, each naming the file and key path; flags and --set are checked
// as serve reads them.
func TestValidate(t *testing.T) {
	good := writeConfig(t, "receiver:\n  grpc:\n    endpoint: 127.0.0.1:4317\n")
	if code, out, errOut := runCLI("validate", "-config", good); code != 0 || out != "" || errOut != "" {
		t.Errorf("valid config: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("validate", "-config", good, "--set", "exporters.clickhouse.enabled=true", "--set", "log.level=debug"); code != 0 {
		t.Errorf("valid --set: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI("validate"); code != 0 {
		t.Errorf("defaults: exit %d: %s", code, errOut)
	}

	bad := writeConfig(t, "receiver:\n  grpc:\n    endpont: 127.0.0.1:4317\nextractor:\n  quiet_period: soon\nlog:\n  level: loud\n")
	code, out, errOut := runCLI("validate", "-config", bad, "--set", "exporters.clickhouse.timeot=3s", "-data-dir", "")
	if code != 1 || out != "" {
		t.Errorf("invalid config: exit %d, stdout %q", code, out)
	}
	want := []string{
		bad + ": line 3: receiver.grpc.endpont is not a known key (did you mean receiver.grpc.endpoint?)",
		bad + ": line 5 (extractor.quiet_period): cannot unmarshal !!str `soon` into time.Duration",
		bad + ": --set exporters.clickhouse.timeot=3s: exporters.clickhouse.timeot is not a known key (did you mean exporters.clickhouse.timeout?)",
		bad + `: log.level: "loud" is not one of debug, info, warn, error`,
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("validate output lacks the line\n  %s\ngot:\n%s", w, errOut)
		}
	}
	if len(lines) != len(want) {
		t.Errorf("%d lines, want %d (one per problem):\n%s", len(lines), len(want), errOut)
	}

	pairwise := writeConfig(t, "judge:\n  judges: [{name: j, provider: openai, model: m, api_key: k}]\n  metrics: [{name: pairwise_coherence}]\n")
	if code, _, errOut := runCLI("validate", "-config", pairwise); code != 1 || !strings.Contains(errOut, "judge.baseline.version: must name the baseline release") {
		t.Errorf("pairwise metric without a baseline release: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("validate", "-config", pairwise, "--set", "judge.baseline.version=previous"); code != 0 {
		t.Errorf("pairwise metric with a baseline release: exit %d, %q", code, errOut)
	}

	if code, _, _ := runCLI("validate", "-nosuchflag"); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if code, _, errOut := runCLI("serve", "--data-dri", "/tmp/x"); code != 2 || !strings.Contains(errOut, "did you mean -data-dir?") {
		t.Errorf("misspelt flag: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("validate", "-config", filepath.Join(t.TempDir(), "missing.yaml")); code != 1 || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("missing file: exit %d, %q", code, errOut)
	}
}
