package dataset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// checkRows asserts what must hold for any successfully parsed dataset.
func checkRows(t *testing.T, rows []Row) {
	t.Helper()
	for i, r := range rows {
		if r.Index != i || r.Instance == nil {
			t.Fatalf("row %d: index %d, instance %v", i, r.Index, r.Instance)
		}
		if r.Instance.Has&scorer.InInvocations != 0 && len(r.Instance.Invocations) == 0 {
			t.Fatalf("row %d: invocations marked present but empty", i)
		}
		for _, c := range r.Instance.PredictedTrajectory {
			if c.ArgumentsValid && (c.Arguments == "" || c.Arguments[0] != '{') {
				t.Fatalf("row %d: arguments %q marked valid", i, c.Arguments)
			}
		}
	}
}

func addFile(f *testing.F, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

func FuzzJSONL(f *testing.F) {
	addFile(f, "vertex.jsonl")
	addFile(f, "ragas.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, bad, err := ParseRows(data, FormatJSONL)
		if err == nil && len(bad) == 0 {
			checkRows(t, rows)
		}
	})
}

func FuzzJSONArray(f *testing.F) {
	addFile(f, "vertex.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, bad, err := ParseRows(data, FormatJSON)
		if err == nil && len(bad) == 0 {
			checkRows(t, rows)
		}
	})
}

func FuzzCSV(f *testing.F) {
	addFile(f, "vertex.csv")
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, bad, err := ParseRows(data, FormatCSV)
		if err == nil && len(bad) == 0 {
			checkRows(t, rows)
		}
	})
}

func FuzzEvalSet(f *testing.F) {
	addFile(f, "snake.evalset.json")
	addFile(f, "camel.evalset.json")
	addFile(f, "legacy.test.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		set, err := ParseEvalSet(data)
		if err != nil {
			return
		}
		rows, _, _ := Join(set, nil, DefaultCaseIDAttribute)
		if len(rows) != len(set.Cases) {
			t.Fatalf("%d rows for %d cases", len(rows), len(set.Cases))
		}
		checkRows(t, rows)
	})
}
