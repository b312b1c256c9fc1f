package scorer

import (
	"context"
	"errors"
	"fmt"
	"sort"
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
	mu        sync.RWMutex
	factories map[string]Factory
}

// Entry is a metric id and the factory that builds it, as a metric family
// lists them.
type Entry struct {
	Name string
	New  Factory
}

// NewRegistry returns an empty registry (package catalog returns one with
// every built-in metric).
func NewRegistry() *Registry {
	return &Registry{factories: make(map[string]Factory)}
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

// RegisterAll registers every entry, stopping at the first error.
func (r *Registry) RegisterAll(entries ...Entry) error {
	for _, e := range entries {
		if err := r.Register(e.Name, e.New); err != nil {
			return err
		}
	}
	return nil
}

// Register adds a factory under name. Registering an empty name, a nil
// factory or a name already taken is an error.
func (r *Registry) Register(name string, f Factory) error {
	if name == "" {
		return errors.New("register metric: empty name")
	}
	if f == nil {
		return fmt.Errorf("register metric %q: nil factory", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.factories[name]; ok {
		return fmt.Errorf("register metric %q: already registered", name)
	}
	r.factories[name] = f
	return nil
}

// Names returns the registered metric ids, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.factories))
	for n := range r.factories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
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
		f, ok := r.factories[kind]
		r.mu.RUnlock()
		if !ok {
			return nil, fmt.Errorf("metric %q: unknown metric type %q (known: %s)", c.Name, kind, strings.Join(r.Names(), ", "))
		}
		params := c.Params
		if params == nil {
			params = map[string]any{}
		}
		m, err := f(params)
		if err != nil {
			return nil, fmt.Errorf("metric %q: %w", c.Name, err)
		}
		if m == nil {
			return nil, fmt.Errorf("metric %q: factory returned no metric", c.Name)
		}
		if m.Name() != c.Name {
			if j, ok := m.(Judged); ok {
				m = namedJudged{named: named{Metric: m, name: c.Name}, judge: j.JudgeName()}
			} else {
				m = named{Metric: m, name: c.Name}
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// named gives a configured metric its own id, e.g. "my_rouge" for a rouge
// metric with particular parameters.
type named struct {
	Metric
	name string
}

// Name returns the configured id.
func (n named) Name() string { return n.name }

// Score scores with the underlying metric and reports the result under
// the configured id.
func (n named) Score(ctx context.Context, in *Instance) (Result, error) {
	r, err := n.Metric.Score(ctx, in)
	if err == nil {
		r.Metric = n.name
	}
	return r, err
}

// namedJudged is a renamed judge metric: it stays a Judged, so the engine
// still runs it in the judge stage.
type namedJudged struct {
	named
	judge string
}

// JudgeName returns the underlying metric's judge.
func (n namedJudged) JudgeName() string { return n.judge }
