package prometheus

import (
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// maxCachedRows bounds the run and agent rows each kept by the exporter.
// Past it, a run gets a fresh row that is not remembered: its series are
// still found, through the children caches, just not kept for the next run.
const maxCachedRows = 4096

// runSeries are the series of one (service, service_version, agent)
// triple. Export resolves the row once per evaluation and reaches every
// series of the run through it by label id, without hashing or locking;
// a series not reached yet is taken from the children caches (and so
// created on first use, as before) and remembered in the row.
type runSeries struct {
	service, version, agent label
	// calls holds the tool-call and token series of (service, agent).
	calls        *agentSeries
	trajectories childTable[prometheus.Counter]  // by outcome id (ok, failed)
	duration     childTable[prometheus.Observer] // at 0
	scores       childTable[prometheus.Observer] // by numFamilies*metric id + family
	scored       childTable[prometheus.Counter]  // by metric id
	passed       childTable[prometheus.Counter]  // by metric id
}

// agentSeries are the tool-call and token series of one (service, agent)
// pair.
type agentSeries struct {
	service, agent label
	toolCalls      childTable[prometheus.Counter]  // by 2*tool id + (0 ok, 1 error)
	toolDurations  childTable[prometheus.Observer] // by tool id
	tokens         childTable[prometheus.Counter]  // by 2*model id + token type id
}

// childTable is a growable table of series indexed by a label id. Reads
// take no lock; stores, on a series' first use in a row, take mu.
type childTable[V any] struct {
	mu  sync.Mutex
	tab atomic.Pointer[[]atomic.Pointer[V]]
}

// load returns the series at i, or nil when there is none yet.
func (t *childTable[V]) load(i uint32) *V {
	if tab := t.tab.Load(); tab != nil && uint64(i) < uint64(len(*tab)) {
		return (*tab)[i].Load()
	}
	return nil
}

// get returns the series at i, made by mk and stored on first use.
func (t *childTable[V]) get(i uint32, mk func() V) V {
	if p := t.load(i); p != nil {
		return *p
	}
	v := mk()
	t.store(i, v)
	return v
}

// store sets the series at i, growing the table as needed.
func (t *childTable[V]) store(i uint32, v V) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var cur []atomic.Pointer[V]
	if tab := t.tab.Load(); tab != nil {
		cur = *tab
	}
	if uint64(i) >= uint64(len(cur)) {
		next := make([]atomic.Pointer[V], max(2*len(cur), int(i)+1, 8))
		for j := range cur {
			next[j].Store(cur[j].Load())
		}
		t.tab.Store(&next)
		cur = next
	}
	cur[i].Store(&v)
}

type runKey struct{ service, version, agent uint32 }

type agentKey struct{ service, agent uint32 }

// seriesRows caches the run and agent rows by their label ids.
type seriesRows struct {
	mu     sync.RWMutex
	runs   map[runKey]*runSeries
	agents map[agentKey]*agentSeries
}

func newSeriesRows() *seriesRows {
	return &seriesRows{runs: make(map[runKey]*runSeries), agents: make(map[agentKey]*agentSeries)}
}

// run returns the row of (service, version, agent).
func (s *seriesRows) run(service, version, agent label) *runSeries {
	k := runKey{service.id, version.id, agent.id}
	s.mu.RLock()
	r := s.runs[k]
	s.mu.RUnlock()
	if r != nil {
		return r
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r = s.runs[k]; r != nil {
		return r
	}
	r = &runSeries{service: service, version: version, agent: agent, calls: s.agentLocked(service, agent)}
	if len(s.runs) < maxCachedRows {
		s.runs[k] = r
	}
	return r
}

// agent returns the row of (service, agent).
func (s *seriesRows) agent(service, agent label) *agentSeries {
	k := agentKey{service.id, agent.id}
	s.mu.RLock()
	a := s.agents[k]
	s.mu.RUnlock()
	if a != nil {
		return a
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agentLocked(service, agent)
}

// agentLocked is agent with s.mu held for writing.
func (s *seriesRows) agentLocked(service, agent label) *agentSeries {
	k := agentKey{service.id, agent.id}
	if a := s.agents[k]; a != nil {
		return a
	}
	a := &agentSeries{service: service, agent: agent}
	if len(s.agents) < maxCachedRows {
		s.agents[k] = a
	}
	return a
}

// trajectories returns the run's trajectory counter for outcome (ok or
// failed).
func (c seriesCaches) trajectories(r *runSeries, outcome label) prometheus.Counter {
	return r.trajectories.get(outcome.id&1, func() prometheus.Counter {
		return c.counter(seriesTrajectories, r.service, r.version, r.agent, outcome)
	})
}

// trajectoryDuration returns the run's duration histogram.
func (c seriesCaches) trajectoryDuration(r *runSeries) prometheus.Observer {
	return r.duration.get(0, func() prometheus.Observer {
		return c.observer(seriesTrajectoryDuration, r.service, r.version, r.agent, label{})
	})
}

// score returns the run's score histogram of family f for metric.
func (c seriesCaches) score(r *runSeries, metric label, f scoreFamily) prometheus.Observer {
	return r.scores.get(uint32(numFamilies)*metric.id+uint32(f), func() prometheus.Observer {
		return c.observer(seriesEvalScore+vecID(f), r.service, r.version, r.agent, metric)
	})
}

// scoreCounter returns the run's scored (vec seriesEvalScored) or passed
// (seriesEvalPassed) counter for metric, creating it on first use.
func (c seriesCaches) scoreCounter(r *runSeries, vec vecID, metric label) prometheus.Counter {
	t := &r.scored
	if vec == seriesEvalPassed {
		t = &r.passed
	}
	return t.get(metric.id, func() prometheus.Counter { return c.counter(vec, r.service, r.version, r.agent, metric) })
}

// toolCalls returns the agent's tool-call counter for tool and outcome (ok
// or error).
func (c seriesCaches) toolCalls(a *agentSeries, tool, outcome label) prometheus.Counter {
	i := 2 * tool.id
	if outcome.id != idOutcomeOK {
		i++
	}
	return a.toolCalls.get(i, func() prometheus.Counter { return c.counter(seriesToolCalls, a.service, a.agent, tool, outcome) })
}

// toolDuration returns the agent's tool-call duration histogram for tool.
func (c seriesCaches) toolDuration(a *agentSeries, tool label) prometheus.Observer {
	return a.toolDurations.get(tool.id, func() prometheus.Observer {
		return c.observer(seriesToolCallDuration, a.service, a.agent, tool, label{})
	})
}

// tokens returns the agent's token counter for model and token type.
func (c seriesCaches) tokens(a *agentSeries, model, typ label) prometheus.Counter {
	return a.tokens.get(2*model.id+typ.id&1, func() prometheus.Counter { return c.counter(seriesLLMTokens, a.service, a.agent, model, typ) })
}
