package jsonl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/exporter/internal/exportertest"
	"github.com/evalsidecar/evalsidecar/exporter/record"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

var update = flag.Bool("update", false, "rewrite golden files")

// scoredAt is the fixed scoring time used by golden files.
var scoredAt = exportertest.ScoredAt()

// loadEvaluations returns the exporters' shared evaluation fixture.
func loadEvaluations(t testing.TB) []scorer.Evaluation { return exportertest.Evaluations(t) }

type harness struct {
	x     *Exporter
	reg   *prometheus.Registry
	drops *telemetry.Drops
	dir   string
}

func newHarness(t *testing.T, mutate func(*Config)) *harness {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Directory = filepath.Join(t.TempDir(), "out")
	cfg.FlushInterval = time.Hour // only Shutdown and the size threshold flush
	if mutate != nil {
		mutate(&cfg)
	}
	reg := prometheus.NewRegistry()
	drops := telemetry.NewDrops(reg)
	x, err := New(cfg, telemetry.Settings{Registerer: reg, Drops: drops})
	if err != nil {
		t.Fatal(err)
	}
	x.now = func() time.Time { return scoredAt }
	return &harness{x: x, reg: reg, drops: drops, dir: cfg.Directory}
}

func (h *harness) start(t *testing.T) {
	t.Helper()
	if err := h.x.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) shutdown(t *testing.T) {
	t.Helper()
	if err := h.x.Shutdown(t.Context()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

func (h *harness) dropped(reason string) float64 {
	return testutil.ToFloat64(h.drops.Vec().WithLabelValues(dropStage, reason))
}

func (h *harness) written(stream string) float64 {
	return testutil.ToFloat64(h.x.m.sent[slices.Index(streamNames[:], stream)])
}

// lines returns the lines of a file, checking each is one JSON object.
func lines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			t.Fatalf("%s: line %d is not a JSON object: %v", path, len(out)+1, err)
		}
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	exportertest.Golden(t, name, got, *update)
}

func TestGoldenFiles(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	for _, ev := range loadEvaluations(t) {
		if err := h.x.Export(t.Context(), &ev); err != nil {
			t.Fatal(err)
		}
	}
	h.shutdown(t)
	for _, stream := range []string{streamTrajectories, streamScores} {
		got, err := os.ReadFile(filepath.Join(h.dir, stream+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		golden(t, stream+".golden.jsonl", got)
	}
	if h.written(streamTrajectories) != 3 || h.written(streamScores) != 7 {
		t.Errorf("records counted: %v trajectories, %v scores; want 3 and 7",
			h.written(streamTrajectories), h.written(streamScores))
	}
	st, err := os.Stat(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != dirPerm {
		t.Errorf("directory mode %o, want %o", perm, dirPerm)
	}
}

// numbered returns an evaluation whose trace id encodes i.
func numbered(i int) *scorer.Evaluation {
	return &scorer.Evaluation{
		Trajectory: &agentrun.Trajectory{TraceID: fmt.Sprintf("trace-%05d", i), Service: "svc", Input: strings.Repeat("x", 100)},
		Results:    []scorer.Result{{Metric: "m", Score: float64(i)}},
	}
}

func traceIDs(t *testing.T, paths ...string) []string {
	t.Helper()
	var ids []string
	for _, p := range paths {
		for _, l := range lines(t, p) {
			var r struct {
				TraceID string `json:"trace_id"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, r.TraceID)
		}
	}
	return ids
}

func TestRotationKeepsMaxFiles(t *testing.T) {
	const maxBytes, maxFiles, n = 1200, 2, 60
	h := newHarness(t, func(c *Config) { c.MaxFileBytes = maxBytes; c.MaxFiles = maxFiles })
	h.start(t)
	for i := range n {
		if err := h.x.Export(t.Context(), numbered(i)); err != nil {
			t.Fatal(err)
		}
	}
	h.shutdown(t)

	for _, stream := range []string{streamTrajectories, streamScores} {
		rotated, err := filepath.Glob(filepath.Join(h.dir, stream+"-*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(rotated)
		if len(rotated) != maxFiles {
			t.Fatalf("%s: %d rotated files %v, want %d", stream, len(rotated), rotated, maxFiles)
		}
		all := append(rotated, filepath.Join(h.dir, stream+".jsonl"))
		for _, p := range all {
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if st.Size() > maxBytes || st.Size() == 0 {
				t.Errorf("%s has %d bytes, want 1..%d", p, st.Size(), maxBytes)
			}
		}
		// The kept files hold the newest records, in order, without gaps.
		ids := traceIDs(t, all...)
		if len(ids) == 0 || ids[len(ids)-1] != fmt.Sprintf("trace-%05d", n-1) {
			t.Fatalf("%s: last record %v, want trace-%05d", stream, ids[len(ids)-1:], n-1)
		}
		first := n - len(ids)
		for i, id := range ids {
			if want := fmt.Sprintf("trace-%05d", first+i); id != want {
				t.Fatalf("%s: record %d is %s, want %s", stream, i, id, want)
			}
		}
		if first == 0 {
			t.Errorf("%s: no record was rotated away; the test does not exercise deletion", stream)
		}
	}
	if h.written(streamTrajectories) != n || h.written(streamScores) != n {
		t.Errorf("records counted %v/%v, want %d each (deleted files included)",
			h.written(streamTrajectories), h.written(streamScores), n)
	}
}

func TestRotationPrunesExistingFilesAtStart(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxFiles = 1 })
	if err := os.MkdirAll(h.dir, 0o750); err != nil {
		t.Fatal(err)
	}
	old := []string{
		"scores-20250101T000000.000000000Z.jsonl",
		"scores-20250102T000000.000000000Z.jsonl",
		"scores-20250103T000000.000000000Z.jsonl",
		"scores-notatime.jsonl", // not ours: kept
		"trajectories.jsonl",    // the current file: appended to
	}
	for _, name := range old {
		if err := os.WriteFile(filepath.Join(h.dir, name), []byte("{}\n"), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	h.start(t)
	if err := h.x.Export(t.Context(), numbered(1)); err != nil {
		t.Fatal(err)
	}
	h.shutdown(t)
	entries, err := os.ReadDir(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"decisions.jsonl", "feedback.jsonl", "scores-20250103T000000.000000000Z.jsonl", "scores-notatime.jsonl", "scores.jsonl", "sessions.jsonl", "trajectories.jsonl"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", names, want)
	}
	if ids := traceIDs(t, filepath.Join(h.dir, "trajectories.jsonl")); len(ids) != 2 || ids[1] != "trace-00001" {
		t.Errorf("trajectories.jsonl holds %v, want the old line then trace-00001", ids)
	}
}

func TestRotatedNamesAreUniqueAndOrdered(t *testing.T) {
	// A fixed clock makes every rotation happen at the same instant.
	h := newHarness(t, func(c *Config) { c.MaxFileBytes = 300; c.MaxFiles = 100 })
	h.start(t)
	for i := range 10 {
		if err := h.x.Export(t.Context(), numbered(i)); err != nil {
			t.Fatal(err)
		}
	}
	h.shutdown(t)
	rotated, err := filepath.Glob(filepath.Join(h.dir, "trajectories-*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rotated)
	if len(rotated) != 9 { // each record (> 150 bytes) gets its own file
		t.Fatalf("%d rotated files, want 9", len(rotated))
	}
	ids := traceIDs(t, append(rotated, filepath.Join(h.dir, "trajectories.jsonl"))...)
	for i, id := range ids {
		if want := fmt.Sprintf("trace-%05d", i); id != want {
			t.Fatalf("in name order, record %d is %s, want %s", i, id, want)
		}
	}
}

func TestQueueFullDropsAndCounts(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.SendingQueue.QueueSize = 2 })
	ev := &loadEvaluations(t)[0] // 1 trajectory + 6 scores
	for i := range 2 {
		if err := h.x.Export(t.Context(), ev); err != nil {
			t.Fatalf("export %d: %v", i, err)
		}
	}
	if got := testutil.ToFloat64(h.x.m.queueLength); got != 2 {
		t.Errorf("queue length %v, want 2", got)
	}
	if err := h.x.Export(t.Context(), ev); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("export into a full queue: %v, want ErrQueueFull", err)
	}
	if got := h.dropped(dropQueueFull); got != 7 {
		t.Errorf("queue_full drops %v, want 7 records", got)
	}
	h.start(t)
	h.shutdown(t)
	if got := len(lines(t, filepath.Join(h.dir, "scores.jsonl"))); got != 12 {
		t.Errorf("%d score lines written, want the 12 of the two queued evaluations", got)
	}
	if got := testutil.ToFloat64(h.x.m.queueLength); got != 0 {
		t.Errorf("queue length after shutdown %v, want 0", got)
	}
}

func TestShutdownFlushesEverything(t *testing.T) {
	const n = 500
	h := newHarness(t, func(c *Config) { c.SendingQueue.QueueSize = n })
	for i := range n { // queued before Start: all are still in memory
		if err := h.x.Export(t.Context(), numbered(i)); err != nil {
			t.Fatal(err)
		}
	}
	h.start(t)
	h.shutdown(t)
	for _, stream := range []string{streamTrajectories, streamScores} {
		if got := len(lines(t, filepath.Join(h.dir, stream+".jsonl"))); got != n {
			t.Errorf("%s: %d lines after Shutdown, want %d", stream, got, n)
		}
	}
	for _, r := range []string{dropQueueFull, dropWriteError, dropShutdownTimeout} {
		if got := h.dropped(r); got != 0 {
			t.Errorf("%s drops = %v, want 0", r, got)
		}
	}
}

func TestFlushInterval(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.FlushInterval = time.Millisecond })
	h.start(t)
	defer h.shutdown(t)
	if err := h.x.Export(t.Context(), numbered(7)); err != nil {
		t.Fatal(err)
	}
	// The background flush writes the line without Shutdown; wait for it
	// by polling the counter, not by timing.
	for h.written(streamScores) < 1 {
		select {
		case <-t.Context().Done():
			t.Fatal("no flush")
		default:
			time.Sleep(time.Millisecond)
		}
	}
	if ids := traceIDs(t, filepath.Join(h.dir, "scores.jsonl")); len(ids) != 1 || ids[0] != "trace-00007" {
		t.Errorf("scores.jsonl holds %v before Shutdown", ids)
	}
}

func TestConcurrentExport(t *testing.T) {
	const workers, each = 8, 100
	h := newHarness(t, func(c *Config) { c.SendingQueue.QueueSize = workers * each; c.MaxFileBytes = 64 << 10 })
	h.start(t)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if err := h.x.Export(context.Background(), numbered(w*each+i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	h.shutdown(t)
	files, err := filepath.Glob(filepath.Join(h.dir, "trajectories*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, id := range traceIDs(t, files...) {
		if seen[id] {
			t.Errorf("%s written twice", id)
		}
		seen[id] = true
	}
	if len(seen) != workers*each {
		t.Errorf("%d distinct trajectories written, want %d", len(seen), workers*each)
	}
}

func TestExportAfterShutdown(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	h.shutdown(t)
	if err := h.x.Export(t.Context(), &loadEvaluations(t)[0]); !errors.Is(err, ErrClosed) {
		t.Fatalf("Export after Shutdown: %v, want ErrClosed", err)
	}
	if got := h.dropped(dropShuttingDown); got != 7 {
		t.Errorf("shutting_down drops %v, want 7", got)
	}
	if err := h.x.Shutdown(t.Context()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
	if err := h.x.Start(t.Context()); err == nil {
		t.Error("Start after Shutdown succeeded")
	}
}

func TestShutdownWithoutStartCountsQueued(t *testing.T) {
	h := newHarness(t, nil)
	if err := h.x.Export(t.Context(), &loadEvaluations(t)[0]); err != nil {
		t.Fatal(err)
	}
	h.shutdown(t)
	if got := h.dropped(dropNotStarted); got != 7 {
		t.Errorf("not_started drops %v, want 7", got)
	}
}

func TestShutdownDeadlineCountsTheRest(t *testing.T) {
	const n = 2000
	h := newHarness(t, func(c *Config) { c.SendingQueue.QueueSize = n })
	for i := range n {
		if err := h.x.Export(t.Context(), numbered(i)); err != nil {
			t.Fatal(err)
		}
	}
	h.start(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := h.x.Shutdown(ctx)
	// Whether the writer finished first is a race; either way every record
	// is either written or counted.
	lost := h.dropped(dropShutdownTimeout)
	if (err == nil) != (lost == 0) {
		t.Errorf("Shutdown error %v with %v records dropped", err, lost)
	}
	for _, stream := range []string{streamTrajectories, streamScores} {
		onDisk := len(lines(t, filepath.Join(h.dir, stream+".jsonl")))
		if float64(onDisk) != h.written(stream) {
			t.Errorf("%s: %d lines on disk, %v counted written", stream, onDisk, h.written(stream))
		}
	}
	if total := h.written(streamTrajectories) + h.written(streamScores) + lost; total != 2*n {
		t.Errorf("written + dropped = %v, want %d", total, 2*n)
	}
}

func TestWriteErrorsAreCounted(t *testing.T) {
	h := newHarness(t, nil)
	if err := os.MkdirAll(h.dir, 0o750); err != nil {
		t.Fatal(err)
	}
	// Every write to /dev/full fails with ENOSPC.
	if err := os.Symlink("/dev/full", filepath.Join(h.dir, "trajectories.jsonl")); err != nil {
		t.Skipf("cannot link /dev/full: %v", err)
	}
	h.start(t)
	for _, ev := range loadEvaluations(t) {
		if err := h.x.Export(t.Context(), &ev); err != nil {
			t.Fatal(err)
		}
	}
	_ = h.x.Shutdown(t.Context())
	if got := h.dropped(dropWriteError); got != 3 {
		t.Errorf("write_error drops %v, want the 3 trajectory records", got)
	}
	if got := h.written(streamTrajectories); got != 0 {
		t.Errorf("%v trajectories counted written to /dev/full", got)
	}
	if got := len(lines(t, filepath.Join(h.dir, "scores.jsonl"))); got != 7 {
		t.Errorf("scores stream wrote %d lines, want 7 (unaffected)", got)
	}
}

func TestUnencodableRecordIsDroppedAlone(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	ev := numbered(1)
	ev.Results = append(ev.Results, scorer.Result{Metric: "bad", Score: math.NaN()})
	if err := h.x.Export(t.Context(), ev); err == nil {
		t.Error("Export of a NaN score returned no error")
	}
	h.shutdown(t)
	if got := h.dropped(dropEncodeError); got != 1 {
		t.Errorf("encode_error drops %v, want 1", got)
	}
	if got := len(lines(t, filepath.Join(h.dir, "scores.jsonl"))); got != 1 {
		t.Errorf("%d score lines, want the 1 valid score", got)
	}
	if got := len(lines(t, filepath.Join(h.dir, "trajectories.jsonl"))); got != 1 {
		t.Errorf("%d trajectory lines, want 1", got)
	}
}

func TestStartFailsOnUnusableDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Directory = filepath.Join(file, "sub")
	x, err := New(cfg, telemetry.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Start(t.Context()); err == nil {
		t.Error("Start under a regular file succeeded")
	}
}

func TestMetricsLint(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	_ = h.x.Export(t.Context(), numbered(1))
	h.shutdown(t)
	problems, err := testutil.GatherAndLint(h.reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}

func TestFollowUpWritesScoresAndDecisionsNotTheTrajectory(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	first := numbered(1)
	first.Decisions = []scorer.Decision{{Metric: "coherence", Judge: "primary", Outcome: scorer.OutcomeSampledOut}}
	follow := numbered(1)
	follow.FollowUp = true
	follow.Results[0].Metric = "hallucination_v1"
	follow.Decisions = []scorer.Decision{
		{Metric: "hallucination_v1", Judge: "primary", Outcome: scorer.OutcomeScored},
		{Metric: "safety", Judge: "primary", Outcome: scorer.OutcomeJudgeError, Reason: "rate_limited"},
	}
	for _, ev := range []*scorer.Evaluation{first, follow} {
		if err := h.x.Export(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	h.shutdown(t)
	if got := traceIDs(t, filepath.Join(h.dir, "trajectories.jsonl")); len(got) != 1 {
		t.Errorf("trajectories.jsonl has %d lines, want 1 (a follow-up does not repeat the run)", len(got))
	}
	if got := traceIDs(t, filepath.Join(h.dir, "scores.jsonl")); len(got) != 2 {
		t.Errorf("scores.jsonl has %d lines, want 2", len(got))
	}
	dec := lines(t, filepath.Join(h.dir, "decisions.jsonl"))
	if len(dec) != 3 {
		t.Fatalf("decisions.jsonl has %d lines, want 3", len(dec))
	}
	var last struct {
		TraceID string `json:"trace_id"`
		Metric  string `json:"metric"`
		Outcome string `json:"outcome"`
		Reason  string `json:"reason"`
	}
	if err := json.Unmarshal([]byte(dec[2]), &last); err != nil {
		t.Fatal(err)
	}
	if last.TraceID != "trace-00001" || last.Metric != "safety" || last.Outcome != "judge_error" || last.Reason != "rate_limited" {
		t.Errorf("last decision = %+v", last)
	}
	if got := h.written("decisions"); got != 3 {
		t.Errorf("records_total{stream=decisions} = %v, want 3", got)
	}
}

// TestQueueDisabledWritesInTheCaller: with sending_queue.enabled false,
// Export writes the lines itself, concurrently, before Start it refuses.
func TestQueueDisabledWritesInTheCaller(t *testing.T) {
	const workers, each = 4, 50
	h := newHarness(t, func(c *Config) { c.SendingQueue.Enabled = false })
	if err := h.x.Export(t.Context(), numbered(0)); !errors.Is(err, ErrNotStarted) {
		t.Fatalf("Export before Start: %v, want ErrNotStarted", err)
	}
	h.start(t)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if err := h.x.Export(context.Background(), numbered(w*each+i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	h.shutdown(t)
	if got := len(lines(t, filepath.Join(h.dir, "trajectories.jsonl"))); got != workers*each {
		t.Errorf("%d trajectories written, want %d", got, workers*each)
	}
	if got := h.dropped(dropNotStarted); got != 2 {
		t.Errorf("not_started drops %v, want the 2 records of the first evaluation", got)
	}
}

func TestSessionWritesSessionsAndScopedScores(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := &agentrun.Session{ID: "conv-1", Service: "svc", Agent: "a", CloseReason: agentrun.SessionClosedIdle, Turns: []agentrun.Turn{
		{TraceID: "t1", Start: at, End: at.Add(time.Second)},
		{TraceID: "t2", Start: at.Add(time.Minute), End: at.Add(time.Minute + 2*time.Second), Failed: true},
	}}
	ev := &scorer.Evaluation{Session: s, Results: []scorer.Result{{Metric: "session_turns", Score: 2}}}
	if err := h.x.Export(t.Context(), ev); err != nil {
		t.Fatal(err)
	}
	h.shutdown(t)
	if got := lines(t, filepath.Join(h.dir, "trajectories.jsonl")); len(got) != 0 {
		t.Errorf("trajectories.jsonl has %d lines, want none", len(got))
	}
	ss := lines(t, filepath.Join(h.dir, "sessions.jsonl"))
	if len(ss) != 1 {
		t.Fatalf("sessions.jsonl has %d lines, want 1", len(ss))
	}
	var sr record.SessionRecord
	if err := json.Unmarshal([]byte(ss[0]), &sr); err != nil {
		t.Fatal(err)
	}
	if sr.SessionID != "conv-1" || sr.TurnCount != 2 || sr.FailedTurns != 1 || sr.DurationSeconds != 62 ||
		len(sr.Turns) != 2 || sr.Turns[1].TraceID != "t2" || sr.CloseReason != "idle" {
		t.Errorf("session record %+v", sr)
	}
	sc := lines(t, filepath.Join(h.dir, "scores.jsonl"))
	var score record.ScoreRecord
	if len(sc) != 1 || json.Unmarshal([]byte(sc[0]), &score) != nil {
		t.Fatalf("scores.jsonl: %v", sc)
	}
	if score.Scope != record.ScopeSession || score.SessionID != "conv-1" || score.TraceID != "" || score.Agent != "a" || score.Score != 2 {
		t.Errorf("session score %+v", score)
	}
	if got := h.written("sessions"); got != 1 {
		t.Errorf("records_total{stream=sessions} = %v, want 1", got)
	}
}

func TestFeedbackWritesFeedbackLines(t *testing.T) {
	h := newHarness(t, nil)
	h.start(t)
	at := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	ev := &scorer.Evaluation{Feedback: []scorer.Feedback{
		{Time: at, TraceID: "t1", Metric: "coherence", Label: "pass", Annotator: "ann"},
		{Time: at, TraceID: "t2", Metric: "rating", Value: 4, HasValue: true},
	}}
	if err := h.x.Export(t.Context(), ev); err != nil {
		t.Fatal(err)
	}
	h.shutdown(t)
	for _, other := range []string{"trajectories.jsonl", "scores.jsonl", "decisions.jsonl", "sessions.jsonl"} {
		if got := lines(t, filepath.Join(h.dir, other)); len(got) != 0 {
			t.Errorf("%s has %d lines, want none", other, len(got))
		}
	}
	fl := lines(t, filepath.Join(h.dir, "feedback.jsonl"))
	if len(fl) != 2 {
		t.Fatalf("feedback.jsonl has %d lines, want 2", len(fl))
	}
	var a, b record.FeedbackRecord
	if json.Unmarshal([]byte(fl[0]), &a) != nil || json.Unmarshal([]byte(fl[1]), &b) != nil {
		t.Fatalf("feedback.jsonl: %v", fl)
	}
	if a.TraceID != "t1" || a.Metric != "coherence" || a.Label != "pass" || a.Value != nil || a.Annotator != "ann" || !a.Timestamp.Equal(at) {
		t.Errorf("first feedback record %+v", a)
	}
	if b.TraceID != "t2" || b.Value == nil || *b.Value != 4 || b.Label != "" {
		t.Errorf("second feedback record %+v", b)
	}
	if got := h.written(streamFeedback); got != 2 {
		t.Errorf("feedback lines counted %v, want 2", got)
	}
}
