package jsonl

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
)

// streamBytes returns the bytes of every file of stream in dir.
func streamBytes(t *testing.T, dir, stream string) int64 {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, stream+"*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		n += st.Size()
	}
	return n
}

// TestRetentionCountsAndWarns writes far more than max_files keep, fast:
// every byte written is either on disk or counted as deleted, and the
// deletion of files younger than min_age is logged at WARN, at most once a
// minute and at shutdown.
func TestRetentionCountsAndWarns(t *testing.T) {
	var logs bytes.Buffer
	cfg := DefaultConfig()
	cfg.Directory = filepath.Join(t.TempDir(), "out")
	cfg.FlushInterval = time.Hour
	cfg.MaxFileBytes, cfg.MaxFiles, cfg.MinAge = 1200, 1, time.Hour
	reg := prometheus.NewRegistry()
	x, err := New(cfg, telemetry.Settings{Registerer: reg, Drops: telemetry.NewDrops(reg),
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	x.now = func() time.Time { return scoredAt }
	if err := x.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	var want int64 // bytes of the trajectory lines, encoded apart
	for i := range 60 {
		ev := numbered(i)
		b := x.pool.get()
		encode(b, ev, scoredAt)
		want += int64(len(b.line(0)))
		x.pool.put(b)
		if err := x.Export(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	deleted := int64(testutil.ToFloat64(x.m.deleted.WithLabelValues(streamTrajectories)))
	if onDisk := streamBytes(t, cfg.Directory, streamTrajectories); deleted == 0 || onDisk+deleted != want {
		t.Errorf("%d bytes on disk + %d deleted, want %d written (and some deleted)", onDisk, deleted, want)
	}
	// per stream written: the first early deletion at once, the rest
	// (within a minute) at shutdown; decisions.jsonl had nothing
	if n := strings.Count(logs.String(), "deleted sooner than min_age"); n != 4 {
		t.Errorf("%d warnings, want two for each of trajectories and scores:\n%s", n, logs.String())
	}
}

// TestRetentionByAge deletes rotated files older than max_age, also when
// nothing rotates.
func TestRetentionByAge(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxFileBytes = 1200; c.MaxFiles = 100; c.MaxAge = time.Hour })
	h.start(t)
	for i := range 20 {
		if err := h.x.Export(t.Context(), numbered(i)); err != nil {
			t.Fatal(err)
		}
	}
	h.shutdown(t)
	rotated, _ := filepath.Glob(filepath.Join(h.dir, streamTrajectories+"-*.jsonl"))
	if len(rotated) == 0 {
		t.Fatal("nothing rotated")
	}
	h.x.now = func() time.Time { return scoredAt.Add(time.Hour + time.Second) }
	h.x.streams[0].prune()
	if left, _ := filepath.Glob(filepath.Join(h.dir, streamTrajectories+"-*.jsonl")); len(left) != 0 {
		t.Errorf("%d rotated files older than max_age kept", len(left))
	}
	if n := testutil.ToFloat64(h.x.m.deleted.WithLabelValues(streamTrajectories)); n == 0 {
		t.Error("deleted bytes not counted")
	}
}
