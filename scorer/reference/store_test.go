package reference

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/catalog"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

func config(files ...string) scorer.ReferencesConfig {
	c := scorer.DefaultReferencesConfig()
	c.Files = files
	return c
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(id, input, output string, calls ...agentrun.ToolCall) *scorer.Instance {
	t := &agentrun.Trajectory{Input: input, Output: output, ToolCalls: calls, Attributes: map[string]string{}}
	if id != "" {
		t.Attributes["eval.case_id"] = id
	}
	return scorer.FromTrajectory(t)
}

func TestLookup(t *testing.T) {
	s, err := New(config(filepath.Join("testdata", "lights.evalset.json"), filepath.Join("testdata", "canary.jsonl")), telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Cases() != 4 {
		t.Fatalf("cases %d, want 4", s.Cases())
	}
	tests := []struct {
		name       string
		in         *scorer.Instance
		matchInput bool
		found      bool
		ref        string
		calls      int
		invs       int
	}{
		{"by case id, one-turn ADK case", run("case_off", "switch it off", "off"), false, true, "I have set the device_2 status to off.", 1, 1},
		{"by case id, turn picked by input", run("case_dice", "Roll a 10-sided die twice.", "4, 7"), false, true, "I rolled 4 and 7.", 2, 1},
		{"multi-turn case, unknown turn", run("case_dice", "something else", ""), false, false, "", 0, 0},
		{"by case id, dataset row", run("weather_london", "London?", "sunny"), false, true, "Sunny in London.", 1, 1},
		{"unknown case id", run("nope", "What time is it?", ""), true, false, "", 0, 0},
		{"by input, off", run("", "What time is it?", "noon"), false, false, "", 0, 0},
		{"by input, on", run("", "What time is it?", "noon"), true, true, "It is noon.", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config(filepath.Join("testdata", "lights.evalset.json"), filepath.Join("testdata", "canary.jsonl"))
			cfg.MatchInput = tt.matchInput
			s, err := New(cfg, telemetry.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			got := s.Enrich(context.Background(), tt.in)
			if got != tt.found {
				t.Fatalf("found %v, want %v", got, tt.found)
			}
			if !got {
				if tt.in.Has&(scorer.InReference|scorer.InReferenceTrajectory) != 0 {
					t.Error("a miss must not mark references present")
				}
				return
			}
			if tt.in.Reference != tt.ref || tt.in.Has&scorer.InReference == 0 {
				t.Errorf("reference %q (has %v), want %q", tt.in.Reference, tt.in.Has&scorer.InReference != 0, tt.ref)
			}
			if len(tt.in.ReferenceTrajectory) != tt.calls || len(tt.in.Invocations) != tt.invs {
				t.Errorf("reference calls %d invocations %d, want %d %d", len(tt.in.ReferenceTrajectory), len(tt.in.Invocations), tt.calls, tt.invs)
			}
		})
	}
}

func TestReloadOnChange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "refs.jsonl")
	if err := os.WriteFile(path, []byte(`{"case_id": "a", "prompt": "p", "reference": "old"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	s, err := New(config(path), telemetry.Settings{Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	in := run("a", "p", "x")
	s.Enrich(context.Background(), in)
	if in.Reference != "old" {
		t.Fatalf("reference %q", in.Reference)
	}
	// A new version (different size and a later modification time).
	if err := os.WriteFile(path, []byte(`{"case_id": "a", "prompt": "p", "reference": "new one"}`+"\n"+`{"case_id": "b", "prompt": "q", "reference": "r"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	in = run("a", "p", "x")
	s.Enrich(context.Background(), in)
	if in.Reference != "new one" || s.Cases() != 2 {
		t.Fatalf("after reload: reference %q, cases %d", in.Reference, s.Cases())
	}
	// A broken version keeps the previous references and is counted.
	if err := os.WriteFile(path, []byte("{broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later = later.Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err == nil {
		t.Fatal("a broken file must be reported")
	}
	in = run("a", "p", "x")
	if !s.Enrich(context.Background(), in) || in.Reference != "new one" {
		t.Errorf("broken reload lost the references: %q", in.Reference)
	}
	if got := testutil.ToFloat64(s.reloads.WithLabelValues("error")); got != 1 {
		t.Errorf("reload errors %v, want 1", got)
	}
	if got := testutil.ToFloat64(s.reloads.WithLabelValues("ok")); got != 2 {
		t.Errorf("reloads ok %v, want 2", got)
	}
	if got := testutil.ToFloat64(s.hits[ResultCaseID]); got != 3 {
		t.Errorf("case id hits %v, want 3", got)
	}
}

// TestReloadChangedFile checks that a reload gives the runs of a changed
// file's cases their new expected side and leaves the cases of an
// unchanged file as they were.
func TestReloadChangedFile(t *testing.T) {
	dir := t.TempDir()
	changing := filepath.Join(dir, "refs.jsonl")
	if err := os.WriteFile(changing, []byte(`{"case_id": "a", "prompt": "p", "reference": "old"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := New(config(filepath.Join("testdata", "lights.evalset.json"), changing), telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	enrich := func(in *scorer.Instance) *scorer.Instance {
		t.Helper()
		if !s.Enrich(context.Background(), in) {
			t.Fatalf("no reference for %q", in.CaseID)
		}
		return in
	}
	dice := enrich(run("case_dice", "Roll a 10-sided die twice.", "4, 7"))
	if in := enrich(run("a", "p", "x")); in.Reference != "old" {
		t.Fatalf("before reload: reference %q, want old", in.Reference)
	}
	later := time.Now().Add(time.Minute)
	if err := os.WriteFile(changing, []byte(`{"case_id": "a", "prompt": "p", "reference": "new one"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(changing, later, later); err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if in := enrich(run("a", "p", "x")); in.Reference != "new one" {
		t.Errorf("after reload: reference %q, want new one", in.Reference)
	}
	kept := enrich(run("case_dice", "Roll a 10-sided die twice.", "4, 7"))
	if kept.Reference != dice.Reference || len(kept.ReferenceTrajectory) != len(dice.ReferenceTrajectory) {
		t.Errorf("an unchanged file's case changed: %q %v, was %q %v", kept.Reference, kept.ReferenceTrajectory, dice.Reference, dice.ReferenceTrajectory)
	}
}

func TestRunReloads(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "refs.jsonl")
	if err := os.WriteFile(path, []byte(`{"case_id": "a", "prompt": "p", "reference": "old"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config(path)
	cfg.ReloadInterval = time.Millisecond
	s, err := New(cfg, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.Run(ctx) }()
	copyFile(t, filepath.Join("testdata", "canary.jsonl"), path)
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	for s.Cases() != 2 { // the poller picks the change up; the test times out otherwise
		time.Sleep(time.Millisecond)
	}
	cancel()
	wg.Wait()
}

func TestBadFilesAtStart(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.evalset.json")
	if err := os.WriteFile(bad, []byte(`{"eval_cases": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bad, filepath.Join(dir, "missing.jsonl")} {
		if _, err := New(config(f), telemetry.Settings{}); err == nil {
			t.Errorf("%s: want an error at start", f)
		}
	}
	c := config("x")
	c.ReloadInterval = 0
	if _, err := New(c, telemetry.Settings{}); err == nil {
		t.Error("zero reload interval accepted")
	}
}

// sinkFunc collects evaluations.
type sinkFunc func(*scorer.Evaluation)

func (f sinkFunc) Export(_ context.Context, ev *scorer.Evaluation) error {
	f(ev)
	return nil
}

// TestEngineLookupMakesReferenceMetricsApplicable runs the engine with the
// store as its enricher: a canary run naming its case gets scored by a
// reference metric; a run without a case id finds it not applicable.
func TestEngineLookupMakesReferenceMetricsApplicable(t *testing.T) {
	s, err := New(config(filepath.Join("testdata", "canary.jsonl")), telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := catalog.NewRegistry().Build([]scorer.MetricConfig{{Name: toolmatch.MetricTrajectoryExactMatch}})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		evs = map[string]*scorer.Evaluation{}
	)
	sink := sinkFunc(func(ev *scorer.Evaluation) {
		mu.Lock()
		evs[ev.Trajectory.TraceID] = ev
		mu.Unlock()
	})
	e, err := scorer.NewEngine(scorer.DefaultConfig(), telemetry.Settings{}, ms, sink, scorer.EngineOptions{Enricher: s})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e.Start(ctx)
	call := agentrun.ToolCall{Name: "get_weather", Arguments: `{"city":"London"}`, ArgumentsValid: true}
	for _, tr := range []*agentrun.Trajectory{
		{TraceID: "canary", Input: "London?", Output: "sunny", ToolCalls: []agentrun.ToolCall{call}, Attributes: map[string]string{"eval.case_id": "weather_london"}},
		{TraceID: "plain", Input: "London?", Output: "sunny", ToolCalls: []agentrun.ToolCall{call}},
	} {
		if err := e.Submit(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	c := evs["canary"]
	if c == nil || len(c.Results) != 1 || c.Results[0].Score != 1 {
		t.Errorf("canary run: %+v", c)
	}
	p := evs["plain"]
	if p == nil || len(p.NotApplicable) != 1 || p.NotApplicable[0] != toolmatch.MetricTrajectoryExactMatch {
		t.Errorf("run without a case id: %+v", p)
	}
}

// A case's reference topics reach a canary run of the case, so
// ragas_topic_adherence scores it online.
func TestLookupTopics(t *testing.T) {
	s, err := New(config(filepath.Join("testdata", "topics.jsonl")), telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	in := run("support-1", "Where is my order?", "It ships tomorrow.")
	if !s.Enrich(t.Context(), in) {
		t.Fatal("case not found")
	}
	if in.Has&scorer.InReferenceTopics == 0 || len(in.ReferenceTopics) != 2 || in.ReferenceTopics[1] != "shipping" {
		t.Fatalf("topics %v (has %v)", in.ReferenceTopics, in.Has&scorer.InReferenceTopics != 0)
	}
}
