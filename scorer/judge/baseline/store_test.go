package baseline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

const caseAttr = "eval.case_id"

// run is a live run of service "shop" and release version answering
// prompt; caseID "" leaves the case-id attribute out.
func run(trace, version, caseID, prompt, response string, start time.Time) *scorer.Instance {
	t := &agentrun.Trajectory{TraceID: trace, Service: "shop", ServiceVersion: version, Input: prompt, Output: response,
		Start: start, End: start.Add(time.Second), Attributes: map[string]string{}}
	if caseID != "" {
		t.Attributes[caseAttr] = caseID
	}
	return scorer.FromTrajectory(t)
}

func reason(err error) string {
	var na *scorer.NotApplicableError
	if errors.As(err, &na) {
		return na.Reason
	}
	if err != nil {
		return "error: " + err.Error()
	}
	return ""
}

func newStore(t *testing.T, maxRuns int) (*Store, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	cfg := DefaultConfig()
	cfg.Version, cfg.MaxRuns = "1.0", maxRuns
	s, err := New(cfg, caseAttr, nil, telemetry.Settings{Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	return s, reg
}

// TestStoreFindsTheLatestBaselineOfTheCase records baseline runs as the
// engine's enricher does and checks what candidate runs are compared with,
// and why the others are not.
func TestStoreFindsTheLatestBaselineOfTheCase(t *testing.T) {
	s, reg := newStore(t, 100)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, in := range []*scorer.Instance{
		run("b1", "1.0", "c1", "Hi?", "old answer", t0),
		run("b3", "1.0", "c1", "Hi?", "newest answer", t0.Add(2*time.Minute)),
		run("b2", "1.0", "c1", "Hi?", "older answer", t0.Add(time.Minute)), // delivered late: not the latest
		run("b4", "1.0", "c2", "Other?", "c2 answer", t0),
		run("x", "2.0", "c3", "Hi?", "a candidate is not a baseline", t0),
		run("y", "1.0", "", "Hi?", "no case", t0),
	} {
		if s.Enrich(ctx, in) {
			t.Errorf("Enrich reported a change to %s", in.Trajectory.TraceID)
		}
	}
	tests := []struct {
		name        string
		in          *scorer.Instance
		checkReason string
		wantTrace   string
		findReason  string
	}{
		{"candidate of c1", run("k1", "2.0", "c1", "Hi?", "new", t0.Add(time.Hour)), "", "b3", ""},
		{"candidate of c2", run("k2", "2.1", "c2", "Other?", "new", t0), "", "b4", ""},
		{"case id from the reference store", func() *scorer.Instance {
			in := run("k3", "2.0", "", "Other?", "new", t0)
			in.CaseID = "c2"
			return in
		}(), "", "b4", ""},
		{"another input of c1", run("k4", "2.0", "c1", "Bye?", "new", t0), "", "", ReasonNoBaseline},
		{"case never run by the baseline", run("k5", "2.0", "c9", "Hi?", "new", t0), "", "", ReasonNoBaseline},
		{"baseline run", run("b5", "1.0", "c1", "Hi?", "x", t0), ReasonBaselineRelease, "", ReasonBaselineRelease},
		{"no case id", run("k6", "2.0", "", "Hi?", "x", t0), ReasonNoCaseID, "", ReasonNoCaseID},
		{"no release", run("k7", "", "c1", "Hi?", "x", t0), ReasonNoRelease, "", ReasonNoRelease},
		{"offline row", &scorer.Instance{CaseID: "c1", Prompt: "Hi?"}, ReasonNoCaseID, "", ReasonNoCaseID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reason(s.Check(tt.in)); got != tt.checkReason {
				t.Errorf("Check reason %q, want %q", got, tt.checkReason)
			}
			b, err := s.Find(ctx, tt.in)
			if got := reason(err); got != tt.findReason {
				t.Fatalf("Find reason %q, want %q", got, tt.findReason)
			}
			if b.TraceID != tt.wantTrace {
				t.Errorf("baseline %q, want %q", b.TraceID, tt.wantTrace)
			}
		})
	}
	for _, c := range []struct {
		name string
		c    prometheus.Collector
		want float64
	}{
		{"runs_recorded_total", s.recorded, 4}, // b1, b3, b2, b4
		{"evictions_total", s.evictions, 0},
		{"lookups_total{result=memory}", s.lookups[lookupMemory], 3},
		{"lookups_total{result=miss}", s.lookups[lookupMiss], 2},
	} {
		if got := testutil.ToFloat64(c.c); got != c.want {
			t.Errorf("evalsidecar_baseline_%s = %v, want %v", c.name, got, c.want)
		}
	}
	wantKept(t, reg, 2) // (c1, Hi?), (c2, Other?)
	if b, _ := s.Find(ctx, run("k8", "2.0", "c1", "Hi?", "new", t0)); b.Response != "newest answer" || b.Prompt != "Hi?" {
		t.Errorf("baseline of c1 = %+v", b)
	}
}

// TestStoreEvictsLeastRecentlyUsed keeps max_runs baselines and counts
// every eviction.
func TestStoreEvictsLeastRecentlyUsed(t *testing.T) {
	s, reg := newStore(t, 3)
	ctx := context.Background()
	t0 := time.Now()
	for i := range 5 {
		s.Enrich(ctx, run(fmt.Sprint("b", i), "1.0", fmt.Sprint("c", i), "Hi?", "a", t0))
	}
	for i := range 5 {
		_, err := s.Find(ctx, run("k", "2.0", fmt.Sprint("c", i), "Hi?", "b", t0))
		want := ""
		if i < 2 {
			want = ReasonNoBaseline // the two oldest were evicted
		}
		if got := reason(err); got != want {
			t.Errorf("case c%d: reason %q, want %q", i, got, want)
		}
	}
	if got := testutil.ToFloat64(s.evictions); got != 2 {
		t.Errorf("evictions = %v, want 2", got)
	}
	wantKept(t, reg, 3)
}

func TestConfigValidate(t *testing.T) {
	c := DefaultConfig()
	if err := c.Validate(); err != nil || c.Enabled() {
		t.Errorf("defaults: %v, enabled %v", err, c.Enabled())
	}
	c.MaxRuns, c.Lookback = 0, -time.Second
	err := c.Validate()
	for _, key := range []string{"max_runs", "lookback"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("error %v does not name %s", err, key)
		}
	}
}

// wantKept checks that reg exposes n baseline runs kept in memory.
func wantKept(t *testing.T, reg prometheus.Gatherer, n int) {
	t.Helper()
	want := fmt.Sprintf(`# HELP evalsidecar_baseline_runs Baseline runs kept in memory.
# TYPE evalsidecar_baseline_runs gauge
evalsidecar_baseline_runs %d
`, n)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "evalsidecar_baseline_runs"); err != nil {
		t.Errorf("baseline runs kept (- got, + want):\n%v", err)
	}
}

// TestStorePreviousRelease: with version previous, every release is
// compared with the release whose first run came latest before its own,
// whatever the version strings' order.
func TestStorePreviousRelease(t *testing.T) {
	reg := prometheus.NewRegistry()
	cfg := DefaultConfig()
	cfg.Version = VersionPrevious
	s, err := New(cfg, caseAttr, nil, telemetry.Settings{Registerer: reg})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// 9.0 first runs at t0, 10.0 at t0+1h, 9.1 at t0+2h; each keeps
	// running afterwards (a canary).
	for i, r := range []struct {
		version string
		at      time.Duration
	}{{"9.0", 0}, {"10.0", time.Hour}, {"9.0", 90 * time.Minute}, {"9.1", 2 * time.Hour}, {"10.0", 150 * time.Minute}} {
		s.Enrich(ctx, run(fmt.Sprint("r", i), r.version, "c1", "Hi?", "answer of "+r.version, t0.Add(r.at)))
	}
	tests := []struct {
		version     string
		wantTrace   string
		wantRelease string
		reason      string
	}{
		{"9.1", "r4", "10.0", ""}, // 10.0's latest run of the case
		{"10.0", "r2", "9.0", ""}, // 9.0's latest, not its first
		{"9.0", "", "", ReasonNoPreviousRelease},
		{"11.0", "", "", ReasonNoBaseline}, // a new release: compared with 9.1, which has no run of c2
	}
	for _, tt := range tests {
		caseID := "c1"
		if tt.version == "11.0" {
			caseID = "c2"
			s.Enrich(ctx, run("r9", "9.1", "c9", "Hi?", "x", t0.Add(3*time.Hour)))
		}
		in := run("k", tt.version, caseID, "Hi?", "new", t0.Add(4*time.Hour))
		if err := s.Check(in); err != nil {
			t.Errorf("%s: Check %v, want nil (every release is a candidate)", tt.version, err)
		}
		b, err := s.Find(ctx, in)
		if got := reason(err); got != tt.reason || b.TraceID != tt.wantTrace || b.Version != tt.wantRelease {
			t.Errorf("release %s: baseline %s of %q, reason %q; want %s of %q, reason %q", tt.version, b.TraceID, b.Version, got, tt.wantTrace, tt.wantRelease, tt.reason)
		}
	}
}
