package scorer

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// Factory builds a metric from its config parameters. It returns an error
// naming the bad parameter (see Params).
type Factory func(params map[string]any) (Metric, error)

// Registry maps metric ids to factories. It holds no global state: each
// caller builds its own with NewRegistry and registers further metrics
// (for example judge metrics) on it.
type Registry struct {
	mu      sync.RWMutex
	entries map[string]Entry
}

// Entry is a metric id, the factory that builds it and the semantics of
// its scores, as a metric family lists them.
type Entry struct {
	Name string
	New  Factory
	// Semantics are the scores' direction, unit and pass rule; a metric
	// that is Described overrides them, and configuration overrides
	// both. The zero value means "none" in every respect.
	Semantics Semantics
}

// NewRegistry returns an empty registry (package catalog returns one with
// every built-in metric).
func NewRegistry() *Registry {
	return &Registry{entries: make(map[string]Entry)}
}

// NoParams is the factory of a metric that takes no parameters.
func NoParams(m Metric) Factory {
	return func(params map[string]any) (Metric, error) {
		if err := Params(params).CheckKnown(); err != nil {
			return nil, err
		}
		return m, nil
	}
}

// Register adds a factory under name, with no declared semantics.
// Registering an empty name, a nil factory or a name already taken is an
// error.
func (r *Registry) Register(name string, f Factory) error {
	return r.RegisterAll(Entry{Name: name, New: f})
}

// RegisterAll registers every entry as Register does, stopping at the
// first error; an entry's semantics must be valid.
func (r *Registry) RegisterAll(entries ...Entry) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range entries {
		switch {
		case e.Name == "":
			return errors.New("register metric: empty name")
		case e.New == nil:
			return fmt.Errorf("register metric %q: nil factory", e.Name)
		case r.entries[e.Name].New != nil:
			return fmt.Errorf("register metric %q: already registered", e.Name)
		}
		if err := e.Semantics.normal().Validate(); err != nil {
			return fmt.Errorf("register metric %q: %w", e.Name, err)
		}
		r.entries[e.Name] = e
	}
	return nil
}

// Names returns the registered metric ids, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.entries))
}

// Build builds the configured metrics in order. Errors name the metric
// and, for a bad parameter, the parameter.
func (r *Registry) Build(cfgs []MetricConfig) ([]Metric, error) {
	out := make([]Metric, 0, len(cfgs))
	seen := make(map[string]bool, len(cfgs))
	for i, c := range cfgs {
		if c.Name == "" {
			return nil, fmt.Errorf("metrics[%d]: empty metric name", i)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("metric %q: configured twice", c.Name)
		}
		seen[c.Name] = true
		kind := c.Type
		if kind == "" {
			kind = c.Name
		}
		r.mu.RLock()
		e, ok := r.entries[kind]
		r.mu.RUnlock()
		if !ok {
			return nil, fmt.Errorf("metric %q: unknown metric type %q (known: %s)", c.Name, kind, strings.Join(r.Names(), ", "))
		}
		params := c.Params
		if params == nil {
			params = map[string]any{}
		}
		m, err := e.New(params)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", c.Name, err)
		}
		if m == nil {
			return nil, fmt.Errorf("metric %q: factory returned no metric", c.Name)
		}
		sem := e.Semantics
		if d, ok := m.(Described); ok {
			sem = d.Semantics()
		}
		if sem, err = c.apply(sem); err != nil {
			return nil, fmt.Errorf("metric %q: %w", c.Name, err)
		}
		out = append(out, configure(m, c.Name, sem))
	}
	return out, nil
}

// configure gives a built metric its configured id (e.g. "my_rouge" for a
// rouge metric with particular parameters) and semantics, keeping it
// Inline, Judged or a Precondition as it was.
func configure(m Metric, name string, sem Semantics) Metric {
	c := configured{Metric: m, name: name, sem: sem}
	if j, ok := m.(Judged); ok {
		cj := configuredJudged{configured: c, judge: j.JudgeName()}
		if p, ok := m.(Precondition); ok {
			return configuredComparing{cj, p}
		}
		return cj
	}
	if _, ok := m.(Inline); ok {
		return configuredInline{c}
	}
	return c
}

// configured is a metric under its configured id and semantics.
type configured struct {
	Metric
	name string
	sem  Semantics
}

// Name returns the configured id.
func (c configured) Name() string { return c.name }

// Semantics returns the configured semantics.
func (c configured) Semantics() Semantics { return c.sem }

// Unwrap returns the metric its factory built.
func (c configured) Unwrap() Metric { return c.Metric }

// Score scores with the underlying metric and reports the result under
// the configured id.
func (c configured) Score(ctx context.Context, in *Instance) (Result, error) {
	r, err := c.Metric.Score(ctx, in)
	if err == nil {
		r.Metric = c.name
	}
	return r, err
}

// configuredInline is a configured Inline metric.
type configuredInline struct{ configured }

// Inline marks the metric as one that never blocks.
func (configuredInline) Inline() {}

// configuredJudged is a configured judge metric: it stays a Judged, so
// the engine still runs it in the judge stage.
type configuredJudged struct {
	configured
	judge string
}

// JudgeName returns the underlying metric's judge.
func (c configuredJudged) JudgeName() string { return c.judge }

// configuredComparing is a configured judge metric with a Precondition,
// which it keeps.
type configuredComparing struct {
	configuredJudged
	Precondition
}
