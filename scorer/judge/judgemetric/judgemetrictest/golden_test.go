package judgemetrictest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

func TestRender(t *testing.T) {
	reqs := []*judge.Request{
		{Metric: "m1", System: "sys", Prompt: "p", Schema: &judge.Schema{Name: "verdict"}},
		{Metric: "m1", System: "", Prompt: "q\nr"},
	}
	want := "===== request 1 (metric m1, schema \"verdict\") =====\n----- system -----\nsys\n----- prompt -----\np\n" +
		"===== request 2 (metric m1, schema \"\") =====\n----- system -----\n\n----- prompt -----\nq\nr\n"
	if got := Render(reqs); got != want {
		t.Errorf("Render =\n%s\nwant\n%s", got, want)
	}
}

func TestGoldenFile(t *testing.T) {
	if got, want := GoldenFile("adk_hallucinations_v1"), filepath.Join("testdata", "golden", "adk_hallucinations_v1.txt"); got != want {
		t.Errorf("GoldenFile = %q, want %q", got, want)
	}
}

func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "golden", "m.txt")
	reqs := []*judge.Request{{Metric: "m", Prompt: "p"}}

	r := record(t, func(tb testing.TB) { Golden(tb, path, reqs, false) })
	if !r.fatal || !r.has("run with -update") {
		t.Fatalf("missing file: %q", r.msgs)
	}
	r = record(t, func(tb testing.TB) { Golden(tb, path, reqs, true) })
	if len(r.msgs) != 0 {
		t.Fatalf("update: %q", r.msgs)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != Render(reqs) {
		t.Fatalf("written %q, %v", b, err)
	}
	r = record(t, func(tb testing.TB) { Golden(tb, path, reqs, false) })
	if len(r.msgs) != 0 {
		t.Fatalf("same output: %q", r.msgs)
	}
	r = record(t, func(tb testing.TB) { Golden(tb, path, []*judge.Request{{Metric: "m", Prompt: "changed"}}, false) })
	if r.fatal || !r.has(`line 5: want "p", got "changed"`) {
		t.Fatalf("changed output: %q (fatal %v)", r.msgs, r.fatal)
	}
	r = record(t, func(tb testing.TB) { GoldenText(tb, path, Render(reqs)+"extra\n", false) })
	if !r.has(`want "", got "extra"`) {
		t.Fatalf("longer output: %q", r.msgs)
	}
}
