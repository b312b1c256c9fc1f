// Package baseline keeps the baseline side of online pairwise evaluation:
// the latest run of each eval case by the baseline release (a fixed
// release, or each release's previous one), so that a candidate release's
// run of the same case (canary traffic) is judged against it by the
// pairwise metrics.
package baseline

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// Reasons a live run is not compared, the reason of its not_applicable
// pairwise decisions.
const (
	ReasonNoCaseID          = "no_case_id"             // the run names no eval case
	ReasonNoRelease         = "no_release"             // the run has no service.version
	ReasonBaselineRelease   = "baseline_release"       // the run is of the (fixed) baseline release itself
	ReasonNoPreviousRelease = "no_previous_release"    // version previous: no release of the service ran before the run's
	ReasonNoBaseline        = "no_baseline"            // no baseline run of the case and input yet
	ReasonBaselineFailed    = "baseline_lookup_failed" // ClickHouse failed and memory has none
	lookupMemory            = "memory"
	lookupClickHouse        = "clickhouse"
	lookupMiss              = "miss"
	lookupError             = "error"
	// maxReleases bounds the first runs remembered per (service,
	// release) for version previous.
	maxReleases = 1024
)

// Key identifies the latest run of a case by a release: the service, the
// release, the eval case id and the run's user input (a multi-turn case
// has one baseline per turn).
type Key struct {
	Service, Version, CaseID, Prompt string
}

// release is one release of one service.
type release struct{ service, version string }

// Source reads what any replica stored (the ClickHouse trajectories
// table) since a time: the latest run of a Key (ok false when there is
// none), and the first run of each release of a service.
type Source interface {
	LatestBaseline(ctx context.Context, k Key, since time.Time) (b judgemetric.Baseline, ok bool, err error)
	FirstRuns(ctx context.Context, service string, since time.Time) (map[string]time.Time, error)
}

// Store keeps the latest run per Key of the baseline release (with
// version previous, of every release) in a bounded LRU and finds the
// baseline of candidate runs, in memory and, when a Source is set, in the
// runs other replicas stored. It is a scorer.Enricher (recording runs as
// they are scored) and a judgemetric.Baselines. It is safe for
// concurrent use.
type Store struct {
	cfg      Config
	caseAttr string
	source   Source
	now      func() time.Time
	logger   *slog.Logger

	mu       sync.Mutex
	runs     *simplelru.LRU[Key, judgemetric.Baseline]
	releases *simplelru.LRU[release, time.Time] // first run seen, version previous only

	recorded  prometheus.Counter
	evictions prometheus.Counter
	lookups   map[string]prometheus.Counter
	// failing is set while the Source fails, so an outage is logged once
	// (and its end once), not at every lookup.
	failing atomic.Bool
}

var (
	_ scorer.Enricher       = (*Store)(nil)
	_ judgemetric.Baselines = (*Store)(nil)
)

// New returns a store for cfg's baseline release. caseAttr is the
// trajectory attribute naming a run's eval case (references.case_id_attribute);
// source, when not nil, is read for the runs other replicas stored.
func New(cfg Config, caseAttr string, source Source, set telemetry.Settings) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Store{cfg: cfg, caseAttr: caseAttr, source: source, now: time.Now, logger: set.Log(), lookups: map[string]prometheus.Counter{}}
	s.recorded = prometheus.NewCounter(prometheus.CounterOpts{Name: "evalsidecar_baseline_runs_recorded_total",
		Help: "Runs of an eval case recorded as the latest of their case, input and release, for the pairwise metrics."})
	s.evictions = prometheus.NewCounter(prometheus.CounterOpts{Name: "evalsidecar_baseline_evictions_total",
		Help: "Baseline runs evicted from memory to stay within judge.baseline.max_runs."})
	lookups := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "evalsidecar_baseline_lookups_total",
		Help: "Baseline lookups of candidate runs by the pairwise metrics, by result: memory, clickhouse (a newer run another replica stored), miss (not applicable) or error (a ClickHouse read failed)."},
		[]string{"result"})
	for _, r := range []string{lookupMemory, lookupClickHouse, lookupMiss, lookupError} {
		s.lookups[r] = lookups.WithLabelValues(r)
	}
	size := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "evalsidecar_baseline_runs", Help: "Baseline runs kept in memory."}, func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return float64(s.runs.Len())
	})
	var err error
	if s.runs, err = simplelru.NewLRU(cfg.MaxRuns, func(Key, judgemetric.Baseline) { s.evictions.Inc() }); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	if s.releases, err = simplelru.NewLRU[release, time.Time](maxReleases, nil); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	if err := telemetry.Register(set.Registerer, "baseline", s.recorded, s.evictions, lookups, size); err != nil {
		return nil, err
	}
	return s, nil
}

// previous reports whether each release is compared with the one before it.
func (s *Store) previous() bool { return s.cfg.Version == VersionPrevious }

// key returns the Key of in's own run, or the reason in has none.
func (s *Store) key(in *scorer.Instance) (Key, error) {
	t := in.Trajectory
	if t == nil {
		return Key{}, &scorer.NotApplicableError{Reason: ReasonNoCaseID}
	}
	id := cmp.Or(t.Attributes[s.caseAttr], in.CaseID)
	switch {
	case id == "":
		return Key{}, &scorer.NotApplicableError{Reason: ReasonNoCaseID}
	case t.ServiceVersion == "":
		return Key{}, &scorer.NotApplicableError{Reason: ReasonNoRelease}
	}
	return Key{Service: t.Service, Version: t.ServiceVersion, CaseID: id, Prompt: in.Prompt}, nil
}

// Enrich records a run of an eval case by the baseline release (with
// version previous, by any release) as the latest of its case, input and
// release (a later start wins), and the first run of its release. It
// never changes in and reports false.
func (s *Store) Enrich(_ context.Context, in *scorer.Instance) bool {
	k, err := s.key(in)
	if err != nil || !s.previous() && k.Version != s.cfg.Version {
		return false
	}
	b := judgemetric.Baseline{TraceID: in.Trajectory.TraceID, Version: k.Version, Prompt: in.Prompt, Response: in.Response, Start: in.Trajectory.Start}
	s.mu.Lock()
	if old, ok := s.runs.Peek(k); !ok || !old.Start.After(b.Start) {
		s.runs.Add(k, b)
	}
	if s.previous() {
		r := release{k.Service, k.Version}
		if first, ok := s.releases.Peek(r); !ok || b.Start.Before(first) {
			s.releases.Add(r, b.Start)
		}
	}
	s.mu.Unlock()
	s.recorded.Inc()
	return false
}

// Check reports why in cannot be compared with a baseline run, or nil.
func (s *Store) Check(in *scorer.Instance) error {
	k, err := s.key(in)
	if err == nil && !s.previous() && k.Version == s.cfg.Version {
		err = &scorer.NotApplicableError{Reason: ReasonBaselineRelease}
	}
	return err
}

// Find returns the latest baseline run of in's case and input: the newer
// of the one in memory and, with a Source, the one any replica stored
// within the lookback. A Source error falls back to memory.
func (s *Store) Find(ctx context.Context, in *scorer.Instance) (judgemetric.Baseline, error) {
	if err := s.Check(in); err != nil {
		return judgemetric.Baseline{}, err
	}
	k, _ := s.key(in)
	since := s.now().Add(-s.cfg.Lookback)
	k.Version = s.cfg.Version
	if s.previous() {
		v, err := s.previousRelease(ctx, k.Service, in.Trajectory.ServiceVersion, in.Trajectory.Start, since)
		if err != nil {
			return judgemetric.Baseline{}, err
		}
		k.Version = v
	}
	s.mu.Lock()
	mem, inMem := s.runs.Get(k)
	s.mu.Unlock()
	if s.source != nil {
		b, ok, err := s.source.LatestBaseline(ctx, k, since)
		if err != nil && ctx.Err() != nil {
			return judgemetric.Baseline{}, err
		}
		s.sourceDone(err)
		switch {
		case err != nil && !inMem:
			return judgemetric.Baseline{}, &scorer.NotApplicableError{Reason: ReasonBaselineFailed}
		case err == nil && ok && (!inMem || b.Start.After(mem.Start)):
			s.lookups[lookupClickHouse].Inc()
			b.Version = k.Version
			return b, nil
		}
	}
	if !inMem {
		s.lookups[lookupMiss].Inc()
		return judgemetric.Baseline{}, &scorer.NotApplicableError{Reason: ReasonNoBaseline}
	}
	s.lookups[lookupMemory].Inc()
	return mem, nil
}

// previousRelease is the release of service whose first run came latest
// before the first run of release version (a run of it starting at
// start): the first runs this replica saw and, with a Source, those any
// replica stored since since.
func (s *Store) previousRelease(ctx context.Context, service, version string, start, since time.Time) (string, error) {
	first := map[string]time.Time{}
	s.mu.Lock()
	for _, r := range s.releases.Keys() {
		if r.service == service {
			first[r.version], _ = s.releases.Peek(r)
		}
	}
	s.mu.Unlock()
	if s.source != nil {
		stored, err := s.source.FirstRuns(ctx, service, since)
		if err != nil && ctx.Err() != nil {
			return "", err
		}
		s.sourceDone(err)
		for v, t := range stored {
			if f, ok := first[v]; !ok || t.Before(f) {
				first[v] = t
			}
		}
	}
	own, ok := first[version]
	if !ok || start.Before(own) {
		own = start
	}
	prev, at := "", time.Time{}
	for v, t := range first {
		if v != version && t.Before(own) && (prev == "" || t.After(at) || t.Equal(at) && v > prev) {
			prev, at = v, t
		}
	}
	if prev == "" {
		s.lookups[lookupMiss].Inc()
		return "", &scorer.NotApplicableError{Reason: ReasonNoPreviousRelease}
	}
	return prev, nil
}

// sourceDone counts a failed read of the Source, and logs the first
// failure of an outage and its end.
func (s *Store) sourceDone(err error) {
	if err == nil {
		if s.failing.Swap(false) {
			s.logger.Info("baseline lookups in ClickHouse work again")
		}
		return
	}
	s.lookups[lookupError].Inc()
	if !s.failing.Swap(true) {
		s.logger.Warn("baseline lookups in ClickHouse fail; using the runs in memory (failures counted in evalsidecar_baseline_lookups_total{result=\"error\"})", "err", err)
	}
}
