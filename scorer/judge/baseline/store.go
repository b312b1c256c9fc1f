// Package baseline keeps the baseline side of online pairwise evaluation:
// the latest run of each eval case by the baseline release, so that a
// candidate release's run of the same case (canary traffic) is judged
// against it by the pairwise metrics.
package baseline

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
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
	ReasonNoCaseID        = "no_case_id"             // the run names no eval case
	ReasonNoRelease       = "no_release"             // the run has no service.version
	ReasonBaselineRelease = "baseline_release"       // the run is of the baseline release itself
	ReasonNoBaseline      = "no_baseline"            // no baseline run of the case and input yet
	ReasonBaselineFailed  = "baseline_lookup_failed" // ClickHouse failed and memory has none
	lookupMemory          = "memory"
	lookupClickHouse      = "clickhouse"
	lookupMiss            = "miss"
	lookupError           = "error"
	recordedHelp          = "Baseline-release runs of an eval case recorded as the latest baseline of their case and user input."
	lookupsHelp           = "Baseline lookups of candidate runs by the pairwise metrics, by result: memory, clickhouse (a newer run another replica stored), miss (not applicable, no_baseline) or error (ClickHouse failed)."
	evictionsHelp         = "Baseline runs evicted from memory to stay within judge.baseline.max_runs."
	baselinesHelp         = "Baseline runs kept in memory."
)

// Key identifies the baseline of a case: the service, the eval case id
// and the run's user input (a multi-turn case has one baseline per turn).
type Key struct {
	Service, CaseID, Prompt string
}

// Source reads the latest baseline run that any replica stored (the
// ClickHouse trajectories table); ok is false when there is none.
type Source interface {
	LatestBaseline(ctx context.Context, version string, k Key, since time.Time) (b judgemetric.Baseline, ok bool, err error)
}

// Store keeps the latest baseline-release run per Key in a bounded LRU
// and finds the baseline of candidate runs, in memory and, when a Source
// is set, in the runs other replicas stored. It is an scorer.Enricher
// (recording baseline runs as they are scored) and a
// judgemetric.Baselines. It is safe for concurrent use.
type Store struct {
	cfg      Config
	caseAttr string
	source   Source
	now      func() time.Time
	logger   *slog.Logger

	mu  sync.Mutex
	lru *simplelru.LRU[Key, judgemetric.Baseline]

	recorded  prometheus.Counter
	evictions prometheus.Counter
	lookups   map[string]prometheus.Counter
}

var (
	_ scorer.Enricher       = (*Store)(nil)
	_ judgemetric.Baselines = (*Store)(nil)
)

// New returns a store for cfg's baseline release. caseAttr is the
// trajectory attribute naming a run's eval case (references.case_id_attribute);
// source, when not nil, is read for baseline runs other replicas stored.
func New(cfg Config, caseAttr string, source Source, set telemetry.Settings) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Store{cfg: cfg, caseAttr: caseAttr, source: source, now: time.Now, logger: set.Log(), lookups: map[string]prometheus.Counter{}}
	s.recorded = prometheus.NewCounter(prometheus.CounterOpts{Name: "evalsidecar_baseline_runs_recorded_total", Help: recordedHelp})
	s.evictions = prometheus.NewCounter(prometheus.CounterOpts{Name: "evalsidecar_baseline_evictions_total", Help: evictionsHelp})
	lookups := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "evalsidecar_baseline_lookups_total", Help: lookupsHelp}, []string{"result"})
	for _, r := range []string{lookupMemory, lookupClickHouse, lookupMiss, lookupError} {
		s.lookups[r] = lookups.WithLabelValues(r)
	}
	size := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "evalsidecar_baseline_runs", Help: baselinesHelp}, func() float64 {
		s.mu.Lock()
		defer s.mu.Unlock()
		return float64(s.lru.Len())
	})
	var err error
	if s.lru, err = simplelru.NewLRU(cfg.MaxRuns, func(Key, judgemetric.Baseline) { s.evictions.Inc() }); err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	if reg := set.Registerer; reg != nil {
		for _, c := range []prometheus.Collector{s.recorded, s.evictions, lookups, size} {
			if err := reg.Register(c); err != nil {
				return nil, fmt.Errorf("baseline: register metrics: %w", err)
			}
		}
	}
	return s, nil
}

// key returns in's baseline key, or the reason in has none. isBaseline
// reports a run of the baseline release.
func (s *Store) key(in *scorer.Instance) (k Key, isBaseline bool, err error) {
	t := in.Trajectory
	if t == nil {
		return Key{}, false, &scorer.NotApplicableError{Reason: ReasonNoCaseID}
	}
	id := t.Attributes[s.caseAttr]
	if id == "" {
		id = in.CaseID
	}
	switch {
	case id == "":
		return Key{}, false, &scorer.NotApplicableError{Reason: ReasonNoCaseID}
	case t.ServiceVersion == "":
		return Key{}, false, &scorer.NotApplicableError{Reason: ReasonNoRelease}
	}
	return Key{Service: t.Service, CaseID: id, Prompt: in.Prompt}, t.ServiceVersion == s.cfg.Version, nil
}

// Enrich records a baseline-release run of an eval case as the latest
// baseline of its case and input (a later start wins). It never changes
// in and reports false.
func (s *Store) Enrich(_ context.Context, in *scorer.Instance) bool {
	k, isBaseline, err := s.key(in)
	if err != nil || !isBaseline {
		return false
	}
	b := judgemetric.Baseline{TraceID: in.Trajectory.TraceID, Prompt: in.Prompt, Response: in.Response, Start: in.Trajectory.Start}
	s.mu.Lock()
	if old, ok := s.lru.Peek(k); !ok || !old.Start.After(b.Start) {
		s.lru.Add(k, b)
	}
	s.mu.Unlock()
	s.recorded.Inc()
	return false
}

// Check reports why in cannot be compared with a baseline run, or nil.
func (s *Store) Check(in *scorer.Instance) error {
	_, isBaseline, err := s.key(in)
	if err == nil && isBaseline {
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
	k, _, _ := s.key(in)
	s.mu.Lock()
	mem, inMem := s.lru.Get(k)
	s.mu.Unlock()
	if s.source != nil {
		b, ok, err := s.source.LatestBaseline(ctx, s.cfg.Version, k, s.now().Add(-s.cfg.Lookback))
		switch {
		case err != nil && ctx.Err() != nil:
			return judgemetric.Baseline{}, err
		case err != nil:
			s.lookups[lookupError].Inc()
			s.logger.Warn("baseline lookup in ClickHouse failed; using the runs in memory", "err", err)
			if !inMem {
				return judgemetric.Baseline{}, &scorer.NotApplicableError{Reason: ReasonBaselineFailed}
			}
		case ok && (!inMem || b.Start.After(mem.Start)):
			s.lookups[lookupClickHouse].Inc()
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
