package clickhouse

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/baseline"
)

// TestBaselineReaderFindsTheLatestBaselineRun stores runs of several
// releases, services, cases and inputs through the exporter and reads the
// latest baseline run of each key back.
func TestBaselineReaderFindsTheLatestBaselineRun(t *testing.T) {
	s := newTestServer(t)
	cfg := s.config(t)
	h := startExporter(t, cfg)
	type stored struct {
		trace, service, version, caseID, input, output string
		at                                             time.Duration // after baseTime
	}
	runs := []stored{
		{"01", "shop", "1.0", "c1", "Hi?", "first", 0},
		{"02", "shop", "1.0", "c1", "Hi?", "latest", 2 * time.Minute},
		{"03", "shop", "1.0", "c1", "Hi?", "between", time.Minute},
		{"04", "shop", "2.0", "c1", "Hi?", "candidate", 3 * time.Minute},
		{"05", "other", "1.0", "c1", "Hi?", "other service", 4 * time.Minute},
		{"06", "shop", "1.0", "c1", "Bye?", "other input", 5 * time.Minute},
		{"07", "shop", "1.0", "c2", "Hi?", "c2", -48 * time.Hour},
		{"08", "shop", "1.0", "", "Hi?", "no case", 6 * time.Minute},
	}
	for _, r := range runs {
		start := baseTime.Add(r.at)
		tr := &agentrun.Trajectory{TraceID: fmt.Sprintf("%032s", r.trace), Service: r.service, ServiceVersion: r.version,
			Start: start, End: start.Add(time.Second), Input: r.input, Output: r.output, Attributes: map[string]string{"intent": "x"}}
		if r.caseID != "" {
			tr.Attributes["eval.case_id"] = r.caseID
		}
		if err := h.x.Export(context.Background(), &scorer.Evaluation{Trajectory: tr}); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.x.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the runs", func() bool {
		return s.count(t, "SELECT count() FROM "+s.db+".trajectories") >= len(runs)
	})
	r, err := NewBaselineReader(cfg, "eval.case_id")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	since := baseTime.Add(-24 * time.Hour)
	tests := []struct {
		key       baseline.Key
		since     time.Time
		wantTrace string // "" for none
		wantOut   string
	}{
		{baseline.Key{Service: "shop", Version: "1.0", CaseID: "c1", Prompt: "Hi?"}, since, "02", "latest"},
		{baseline.Key{Service: "shop", Version: "1.0", CaseID: "c1", Prompt: "Bye?"}, since, "06", "other input"},
		{baseline.Key{Service: "other", Version: "1.0", CaseID: "c1", Prompt: "Hi?"}, since, "05", "other service"},
		{baseline.Key{Service: "shop", Version: "2.0", CaseID: "c1", Prompt: "Hi?"}, since, "04", "candidate"},
		{baseline.Key{Service: "shop", Version: "1.0", CaseID: "c2", Prompt: "Hi?"}, since, "", ""}, // older than the lookback
		{baseline.Key{Service: "shop", Version: "1.0", CaseID: "c2", Prompt: "Hi?"}, baseTime.Add(-72 * time.Hour), "07", "c2"},
		{baseline.Key{Service: "shop", Version: "1.0", CaseID: "c3", Prompt: "Hi?"}, since, "", ""},
		{baseline.Key{Service: "shop", Version: "0.9", CaseID: "c1", Prompt: "Hi?"}, since, "", ""},
	}
	for _, tt := range tests {
		b, ok, err := r.LatestBaseline(context.Background(), tt.key, tt.since)
		if err != nil {
			t.Fatal(err)
		}
		want := tt.wantTrace != ""
		if ok != want || (want && (b.TraceID != fmt.Sprintf("%032s", tt.wantTrace) || b.Response != tt.wantOut || b.Prompt != tt.key.Prompt)) {
			t.Errorf("%+v: got %+v found=%v, want trace %s %q", tt.key, b, ok, tt.wantTrace, tt.wantOut)
		}
	}
	first, err := r.FirstRuns(context.Background(), "shop", since)
	if err != nil {
		t.Fatal(err)
	}
	// Release 1.0's first run within the lookback is 01 (07 is older);
	// 2.0's is 04.
	want := map[string]time.Time{"1.0": baseTime, "2.0": baseTime.Add(3 * time.Minute)}
	if len(first) != len(want) || !first["1.0"].Equal(want["1.0"]) || !first["2.0"].Equal(want["2.0"]) {
		t.Errorf("first runs %v, want %v", first, want)
	}
}

// BenchmarkBaselineLookup is one candidate run's baseline lookup on a
// trajectories table of 1M runs of one service over 7 days (1000 cases,
// four releases), the window a default lookback scans: the latest run of
// the case, and (version previous) the first run of each release.
func BenchmarkBaselineLookup(b *testing.B) {
	s := newTestServer(b)
	cfg := s.config(b)
	h := startExporter(b, cfg)
	if err := h.x.Export(context.Background(), &scorer.Evaluation{Trajectory: &agentrun.Trajectory{TraceID: "seed", Service: "shop", Start: baseTime}}); err != nil {
		b.Fatal(err)
	}
	if err := h.x.Flush(context.Background()); err != nil {
		b.Fatal(err)
	}
	waitFor(b, 30*time.Second, "the table", func() bool { return s.count(b, "SELECT count() FROM "+s.db+".trajectories") >= 1 })
	const runs = 1_000_000
	if err := s.exec(context.Background(), fmt.Sprintf(`INSERT INTO %s.trajectories (start, end, trace_id, service, service_version, input, output, attributes, row_key)
	SELECT toDateTime(%d + intDiv(number * 604800, %d)), toDateTime(%d + intDiv(number * 604800, %d) + 1), lower(hex(number)), 'shop',
	  concat('1.', toString(number %% 4)), concat('question ', toString(number %% 1000)), concat('answer ', toString(number)),
	  concat('{"eval.case_id":"case-', toString(number %% 1000), '"}'), number
	FROM system.numbers LIMIT %d`, s.db, baseTime.Unix(), runs, baseTime.Unix(), runs, runs)); err != nil {
		b.Fatal(err)
	}
	r, err := NewBaselineReader(cfg, "eval.case_id")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = r.Close() })
	since := baseTime.Add(-time.Hour)
	b.Run("latest run", func(b *testing.B) {
		i := 0
		for b.Loop() {
			c := i % 1000
			key := baseline.Key{Service: "shop", Version: fmt.Sprint("1.", c%4), CaseID: fmt.Sprint("case-", c), Prompt: fmt.Sprint("question ", c)}
			if _, ok, err := r.LatestBaseline(context.Background(), key, since); err != nil || !ok {
				b.Fatalf("case %d: found %v, %v", c, ok, err)
			}
			i++
		}
	})
	b.Run("first runs", func(b *testing.B) { // version previous
		for b.Loop() {
			if first, err := r.FirstRuns(context.Background(), "shop", since); err != nil || len(first) != 4 {
				b.Fatalf("first runs %v, %v", first, err)
			}
		}
	})
}
