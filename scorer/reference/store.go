// Package reference gives live runs their expected side. A Store loads
// ADK eval sets and Vertex-style datasets at start and again when a file
// changes (its modification time or size), and finds the reference of a
// run by its case-id attribute (canary traffic sets it) or, when
// configured, by exact match of the user input. The engine calls it before
// scoring, so reference-based metrics run when a reference is found and
// are not applicable otherwise.
package reference

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/dataset"
	"github.com/prometheus/client_golang/prometheus"
)

// Lookup outcomes, the values of the result label of
// evalsidecar_reference_lookups_total.
const (
	ResultCaseID = "case_id" // found by the case-id attribute
	ResultInput  = "input"   // found by the user input
	ResultMiss   = "miss"    // no reference
)

// fileState is what the store remembers of a loaded file.
type fileState struct {
	mod   time.Time
	size  int64
	cases []dataset.Case
}

// index is one immutable view of every loaded case.
type index struct {
	byID    map[string]*dataset.Case
	byInput map[string]match
	cases   int
}

// match is one turn of one case.
type match struct {
	c    *dataset.Case
	turn int
}

// Store holds the references. It is safe for concurrent use: lookups read
// an immutable index that Reload swaps.
type Store struct {
	cfg    scorer.ReferencesConfig
	logger *slog.Logger

	reloadMu sync.Mutex // serialises Reload
	files    map[string]fileState
	idx      atomic.Pointer[index]

	reloads *prometheus.CounterVec
	lookups *prometheus.CounterVec
	cases   prometheus.GaugeFunc
	hits    map[string]prometheus.Counter // by result
}

// New loads every file of cfg. A file that cannot be read or parsed is an
// error naming it: the sidecar does not start with broken references.
// Metrics are registered with set.Registerer (nil: not registered).
func New(cfg scorer.ReferencesConfig, set telemetry.Settings) (*Store, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s := &Store{cfg: cfg, logger: set.Log(), files: map[string]fileState{}}
	s.idx.Store(&index{byID: map[string]*dataset.Case{}, byInput: map[string]match{}})
	s.reloads = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "evalsidecar_reference_reloads_total",
		Help: "Reference file loads, by result (ok, error). A file that fails to load keeps its previous references.",
	}, []string{"result"})
	s.lookups = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "evalsidecar_reference_lookups_total",
		Help: "Reference lookups for live runs, by result: case_id, input (exact user input match) or miss.",
	}, []string{"result"})
	s.cases = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "evalsidecar_reference_cases",
		Help: "Eval cases currently loaded from the reference files.",
	}, func() float64 { return float64(s.idx.Load().cases) })
	s.hits = map[string]prometheus.Counter{}
	for _, r := range []string{ResultCaseID, ResultInput, ResultMiss} {
		s.hits[r] = s.lookups.WithLabelValues(r)
	}
	s.reloads.WithLabelValues("ok")
	s.reloads.WithLabelValues("error")
	if err := telemetry.Register(set.Registerer, "references", s.reloads, s.lookups, s.cases); err != nil {
		return nil, err
	}
	if err := s.Reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Cases returns the number of loaded cases.
func (s *Store) Cases() int { return s.idx.Load().cases }

// Run checks the files every reload interval until ctx ends. A file that
// fails to load is logged and counted, and its previous references stay.
func (s *Store) Run(ctx context.Context) {
	tk := time.NewTicker(s.cfg.ReloadInterval)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
			if err := s.Reload(); err != nil {
				s.logger.Warn("reference files not reloaded; keeping the previous references", "err", err)
			}
		}
	}
}

// Reload loads the files whose modification time or size changed since
// the last load and rebuilds the index. Files that fail keep their
// previous cases; the errors are joined.
func (s *Store) Reload() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	var errs []error
	changed := false
	for _, path := range s.cfg.Files {
		st, err := os.Stat(path)
		var cases []dataset.Case
		if err == nil {
			if old, ok := s.files[path]; ok && old.mod.Equal(st.ModTime()) && old.size == st.Size() {
				continue
			}
			cases, err = loadFile(path)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("references: %w", err))
			s.reloads.WithLabelValues("error").Inc()
			continue
		}
		s.files[path] = fileState{mod: st.ModTime(), size: st.Size(), cases: cases}
		s.reloads.WithLabelValues("ok").Inc()
		s.logger.Info("references loaded", "file", path, "cases", len(cases))
		changed = true
	}
	if changed {
		s.idx.Store(s.build())
	}
	return errors.Join(errs...)
}

// build indexes the cases of every file, in file order: a later file wins
// on a duplicate case id or input.
func (s *Store) build() *index {
	idx := &index{byID: map[string]*dataset.Case{}, byInput: map[string]match{}}
	for _, path := range s.cfg.Files {
		st, ok := s.files[path]
		if !ok {
			continue
		}
		for i := range st.cases {
			c := &st.cases[i]
			idx.cases++
			if c.ID != "" {
				idx.byID[c.ID] = c
			}
			for t, turn := range c.Turns {
				if turn.UserContent != "" {
					idx.byInput[turn.UserContent] = match{c: c, turn: t}
				}
			}
		}
	}
	return idx
}

// loadFile reads one reference file: an ADK eval set by name
// (*.evalset.json, *.test.json) or content (a JSON object with eval
// cases), otherwise a dataset whose rows become one-turn cases.
func loadFile(path string) ([]dataset.Case, error) {
	base := strings.ToLower(filepath.Base(path))
	if strings.HasSuffix(base, ".evalset.json") || strings.HasSuffix(base, ".test.json") {
		set, err := dataset.LoadEvalSet(path)
		if err != nil {
			return nil, err
		}
		return set.Cases, nil
	}
	if strings.HasSuffix(base, ".json") {
		if set, err := dataset.LoadEvalSet(path); err == nil {
			return set.Cases, nil
		}
	}
	rows, err := dataset.Load(path, dataset.FormatAuto)
	if err != nil {
		return nil, err
	}
	return dataset.CasesFromRows(rows), nil
}

// Enrich finds the reference of a live run and fills in's reference
// fields: CaseID, Reference, ReferenceTrajectory and ReferenceTopics with
// their Has bits,
// and, when the turn gives both a response and tool calls, one invocation
// pairing the run with it (so per-invocation ADK metrics score it). The
// case comes from the run's case-id attribute; a multi-turn case's turn
// is the one whose user input equals the run's (the only turn of a
// one-turn case otherwise). Without a case id and with match_input on,
// the turn whose user input equals the run's is taken. It reports whether
// a reference was found.
func (s *Store) Enrich(_ context.Context, in *scorer.Instance) bool {
	idx := s.idx.Load()
	id := in.CaseID
	if in.Trajectory != nil {
		if v := in.Trajectory.Attributes[s.cfg.CaseIDAttribute]; v != "" {
			id = v
		}
	}
	var (
		m      match
		found  bool
		result = ResultMiss
	)
	if id != "" {
		if c, ok := idx.byID[id]; ok {
			m, found = turnOf(c, in.Prompt)
			result = ResultCaseID
		}
	} else if s.cfg.MatchInput && in.Prompt != "" {
		m, found = idx.byInput[in.Prompt]
		result = ResultInput
	}
	if !found {
		result = ResultMiss
	}
	s.hits[result].Inc()
	if found {
		apply(in, m)
	}
	return found
}

// Case returns the loaded eval case with id (a later file wins on a
// duplicate id). The case is shared: callers must not modify it.
func (s *Store) Case(id string) (*dataset.Case, bool) {
	c, ok := s.idx.Load().byID[id]
	return c, ok
}

// CaseIDAttribute is the trajectory attribute that names a run's case.
func (s *Store) CaseIDAttribute() string { return s.cfg.CaseIDAttribute }

// turnOf picks the turn of c a run with input prompt answers.
func turnOf(c *dataset.Case, prompt string) (match, bool) {
	for i, t := range c.Turns {
		if t.UserContent == prompt && prompt != "" {
			return match{c: c, turn: i}, true
		}
	}
	if len(c.Turns) == 1 {
		return match{c: c, turn: 0}, true
	}
	return match{}, false
}

// apply copies a turn's expected side into in.
func apply(in *scorer.Instance, m match) {
	t := m.c.Turns[m.turn]
	in.CaseID = m.c.ID
	if len(m.c.Topics) > 0 {
		in.ReferenceTopics = m.c.Topics
		in.Has |= scorer.InReferenceTopics
	}
	if t.HasResponse {
		in.Reference = t.Response
		in.Has |= scorer.InReference
	}
	if t.HasToolCalls {
		in.ReferenceTrajectory = t.ToolCalls
		in.Has |= scorer.InReferenceTrajectory
	}
	if t.HasResponse && t.HasToolCalls {
		in.Invocations = []scorer.Invocation{{
			UserContent:        in.Prompt,
			Response:           in.Response,
			Reference:          t.Response,
			PredictedToolCalls: in.PredictedTrajectory,
			ReferenceToolCalls: t.ToolCalls,
			HasReference:       true,
		}}
		in.Has |= scorer.InInvocations
	}
}
