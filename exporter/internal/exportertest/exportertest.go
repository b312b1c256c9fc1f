// Package exportertest holds the fixtures the exporters' tests share: one
// set of evaluations, the fixed scoring time, and the golden JSON lines of
// the record contract that every exporter writing it must reproduce.
package exportertest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// ScoredAt is the fixed scoring time the golden files use.
func ScoredAt() time.Time { return time.Date(2026, 3, 1, 10, 0, 5, 0, time.UTC) }

// dir is this package's testdata directory, wherever the caller runs.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata")
}

// Evaluations returns the shared evaluation fixture (testdata/evaluations.json).
func Evaluations(t testing.TB) []scorer.Evaluation {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir(), "evaluations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var evs []scorer.Evaluation
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatalf("decode fixture: %v", err)
	}
	return evs
}

// Golden compares got with testdata/<name>, or rewrites the file when
// update is set.
func Golden(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join(dir(), name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated golden file %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}
