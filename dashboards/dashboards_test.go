package dashboards

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite dashboards/generated from the Go definitions")

// TestGeneratedUpToDate fails when the committed JSON differs from what the
// Go definitions produce; run `go test ./dashboards -update` (or
// `sidecar dashboards --out dashboards/generated`) to refresh it.
func TestGeneratedUpToDate(t *testing.T) {
	dir := "generated"
	want := map[string]bool{}
	for _, d := range All() {
		want[d.UID+".json"] = true
		got, err := Render(d, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, d.UID+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		committed, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./dashboards -update)", err)
		}
		if !bytes.Equal(committed, got) {
			t.Errorf("%s is stale: run go test ./dashboards -update", path)
		}
		checkRefIDs(t, d.UID, got)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".json" && !want[e.Name()] {
			t.Errorf("%s/%s has no dashboard definition", dir, e.Name())
		}
	}
}

// checkRefIDs asserts that every panel's targets have unique, non-empty refIds.
func checkRefIDs(t *testing.T, uid string, b []byte) {
	t.Helper()
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				RefID string `json:"refId"`
			} `json:"targets"`
			Panels []json.RawMessage `json:"panels"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	for _, p := range d.Panels {
		seen := map[string]bool{}
		for _, tg := range p.Targets {
			if tg.RefID == "" || seen[tg.RefID] {
				t.Errorf("%s: panel %q has an empty or repeated refId %q", uid, p.Title, tg.RefID)
			}
			seen[tg.RefID] = true
		}
	}
}
