package prometheus

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// maxCachedChildren bounds each children cache. Label values are capped
// already, so the caches stay far below this in practice; past it, lookups
// still work, they are just not remembered.
const maxCachedChildren = 1 << 14

// children caches the label children of metric vectors by a comparable
// key, so the hot path does not validate and hash label values on every
// observation.
type children[K comparable, V any] struct {
	mu    sync.RWMutex
	m     map[K]V
	build func(K) V
}

func newChildren[K comparable, V any](build func(K) V) *children[K, V] {
	return &children[K, V]{m: make(map[K]V), build: build}
}

// get returns the cached children for k, building them on first use.
func (c *children[K, V]) get(k K) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = c.build(k)
	c.mu.Lock()
	if len(c.m) < maxCachedChildren {
		c.m[k] = v
	}
	c.mu.Unlock()
	return v
}

// vecID names one metric vector of the exporter.
type vecID uint8

const (
	seriesTrajectories vecID = iota
	seriesTrajectoryDuration
	seriesToolCalls
	seriesToolCallDuration
	seriesLLMTokens
	seriesEvalScore
)

// seriesKey is one child of one vector: the vector and its label values in
// the vector's label order (unused trailing values empty).
type seriesKey struct {
	vec        vecID
	a, b, c, d string
}

// seriesCaches holds the exporter's children caches. Children are created
// on first use, so a series appears only once it has been observed.
type seriesCaches struct {
	counters  *children[seriesKey, prometheus.Counter]
	observers *children[seriesKey, prometheus.Observer]
}

func newSeriesCaches(m *metrics) seriesCaches {
	return seriesCaches{
		counters: newChildren(func(k seriesKey) prometheus.Counter {
			switch k.vec {
			case seriesTrajectories:
				return m.trajectories.WithLabelValues(k.a, k.b, k.c, k.d)
			case seriesToolCalls:
				return m.toolCalls.WithLabelValues(k.a, k.b, k.c, k.d)
			default:
				return m.llmTokens.WithLabelValues(k.a, k.b, k.c, k.d)
			}
		}),
		observers: newChildren(func(k seriesKey) prometheus.Observer {
			switch k.vec {
			case seriesTrajectoryDuration:
				return m.trajectoryDuration.WithLabelValues(k.a, k.b, k.c)
			case seriesToolCallDuration:
				return m.toolCallDuration.WithLabelValues(k.a, k.b, k.c)
			default:
				return m.evalScore.WithLabelValues(k.a, k.b, k.c, k.d)
			}
		}),
	}
}

// counter returns the cached counter child.
func (c seriesCaches) counter(s vecID, a, b, cc, d string) prometheus.Counter {
	return c.counters.get(seriesKey{s, a, b, cc, d})
}

// observer returns the cached histogram child.
func (c seriesCaches) observer(s vecID, a, b, cc, d string) prometheus.Observer {
	return c.observers.get(seriesKey{s, a, b, cc, d})
}
