package judgemetrictest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Render writes requests as the golden files of the judge metric
// packages hold them: per request a header with its number, metric id
// and schema name, then the system prompt and the prompt.
func Render(reqs []*judge.Request) string {
	var b strings.Builder
	for i, r := range reqs {
		schema := ""
		if r.Schema != nil {
			schema = r.Schema.Name
		}
		fmt.Fprintf(&b, "===== request %d (metric %s, schema %q) =====\n----- system -----\n%s\n----- prompt -----\n%s\n",
			i+1, r.Metric, schema, r.System, r.Prompt)
	}
	return b.String()
}

// GoldenFile is the golden file of name: testdata/golden/<name>.txt.
func GoldenFile(name string) string { return filepath.Join("testdata", "golden", name+".txt") }

// Golden compares Render(reqs) with the file at path; with update it
// rewrites the file instead.
func Golden(t testing.TB, path string, reqs []*judge.Request, update bool) {
	t.Helper()
	GoldenText(t, path, Render(reqs), update)
}

// GoldenText compares got with the file at path; with update it writes
// got to the file instead, creating its directory.
func GoldenText(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update and review the diff): %s", path, firstDiff(string(want), got))
	}
}

// firstDiff describes the first line where got differs from want; they
// differ, so there is one.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	line := func(ls []string, i int) string {
		if i < len(ls) {
			return ls[i]
		}
		return ""
	}
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	return fmt.Sprintf("line %d: want %q, got %q", i+1, line(wl, i), line(gl, i))
}
