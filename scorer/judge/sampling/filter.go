package sampling

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Filter selects the runs a judge metric applies to. Each list holds exact
// values or glob patterns in path.Match syntax ("checkout-*", "v1.?");
// an empty list matches any value. A run must match every list given, and
// for Attributes every key given: the run's value of the attribute must
// match one of the key's values (a run without the attribute does not
// match).
type Filter struct {
	Service        []string            `yaml:"service,omitempty"`
	Agent          []string            `yaml:"agent,omitempty"`
	Environment    []string            `yaml:"environment,omitempty"`
	ServiceVersion []string            `yaml:"service_version,omitempty"`
	Attributes     map[string][]string `yaml:"attributes,omitempty"`
}

// Validate reports every malformed glob pattern, naming its key.
func (f Filter) Validate() error {
	var v errs.Checks
	v.Add(validPatterns("service", f.Service), validPatterns("agent", f.Agent),
		validPatterns("environment", f.Environment), validPatterns("service_version", f.ServiceVersion))
	for _, k := range slices.Sorted(maps.Keys(f.Attributes)) {
		v.Check(k == "", "attributes: attribute name must not be empty")
		v.Check(len(f.Attributes[k]) == 0, "attributes.%s: must list at least one value", k)
		v.Add(validPatterns("attributes."+k, f.Attributes[k]))
	}
	return v.Err()
}

func validPatterns(key string, ps []string) error {
	var v errs.Checks
	for i, p := range ps {
		_, err := path.Match(p, "")
		v.Check(err != nil, "%s[%d]: bad glob pattern %q: %w", key, i, p, err)
	}
	return v.Err()
}

// matcher is a compiled value list: exact values and glob patterns.
type matcher struct {
	exact []string // few values: a linear scan beats a map
	globs []glob
}

// glob is a path.Match pattern. The common form "prefix*" (no other
// metacharacter) is matched without path.Match: a value with that prefix
// whose rest has no '/', as path.Match's '*' does not cross '/'.
type glob struct {
	pattern string
	prefix  string
	star    bool // the pattern is prefix + "*"
}

func compileGlob(p string) glob {
	g := glob{pattern: p}
	if rest, ok := strings.CutSuffix(p, "*"); ok && !isGlob(rest) {
		g.prefix, g.star = rest, true
	}
	return g
}

func (g *glob) match(v string) bool {
	if g.star {
		return strings.HasPrefix(v, g.prefix) && strings.IndexByte(v[len(g.prefix):], '/') < 0
	}
	ok, _ := path.Match(g.pattern, v) // patterns are validated before use
	return ok
}

// isGlob reports whether p has path.Match metacharacters.
func isGlob(p string) bool { return strings.ContainsAny(p, `*?[\`) }

func compileMatcher(vs []string) matcher {
	var m matcher
	for _, v := range vs {
		if isGlob(v) {
			m.globs = append(m.globs, compileGlob(v))
		} else {
			m.exact = append(m.exact, v)
		}
	}
	return m
}

// any reports whether the matcher accepts every value (an empty list).
func (m *matcher) any() bool { return len(m.exact) == 0 && len(m.globs) == 0 }

func (m *matcher) match(v string) bool {
	if m.any() {
		return true
	}
	return slices.Contains(m.exact, v) || slices.ContainsFunc(m.globs, func(g glob) bool { return g.match(v) })
}

// attrMatcher is one attribute key's compiled values.
type attrMatcher struct {
	key string
	m   matcher
}

// compiledFilter is a validated Filter ready to match runs.
type compiledFilter struct {
	service, agent, environment, version matcher
	attrs                                []attrMatcher
}

// compile builds the matcher for a Filter; call Validate first.
func (f Filter) compile() compiledFilter {
	c := compiledFilter{
		service:     compileMatcher(f.Service),
		agent:       compileMatcher(f.Agent),
		environment: compileMatcher(f.Environment),
		version:     compileMatcher(f.ServiceVersion),
	}
	for _, k := range slices.Sorted(maps.Keys(f.Attributes)) {
		c.attrs = append(c.attrs, attrMatcher{key: k, m: compileMatcher(f.Attributes[k])})
	}
	return c
}

// Match reports whether the run passes the filter. It compiles the filter
// on each call: it is meant for checks and tests, while Policy.Decide uses
// the copy compiled by New. A malformed pattern (see Validate) matches
// nothing.
func (f Filter) Match(r *Run) bool {
	c := f.compile()
	return c.match(r)
}

func (c *compiledFilter) match(r *Run) bool {
	if !c.service.match(r.Service) || !c.agent.match(r.Agent) ||
		!c.environment.match(r.Environment) || !c.version.match(r.ServiceVersion) {
		return false
	}
	for i := range c.attrs {
		a := &c.attrs[i]
		v, ok := r.Attributes[a.key]
		if !ok || !a.m.match(v) {
			return false
		}
	}
	return true
}
