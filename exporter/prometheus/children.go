package prometheus

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// maxCachedChildren bounds each children cache. Label values are capped
// already, so the caches stay far below this in practice; past it, lookups
// still work, they are just not remembered.
const maxCachedChildren = 1 << 14

// labelValues are the label values of one child in its vector's label
// order (unused trailing values empty).
type labelValues [4]string

// children caches the label children of metric vectors by series key, so
// the hot path does not validate and hash label values on every
// observation.
type children[V any] struct {
	mu    sync.RWMutex
	m     map[seriesKey]V
	build func(seriesKey, labelValues) V
}

func newChildren[V any](build func(seriesKey, labelValues) V) *children[V] {
	return &children[V]{m: make(map[seriesKey]V), build: build}
}

// get returns the cached child for k, building it from lv, the label
// values k stands for, on first use.
func (c *children[V]) get(k seriesKey, lv labelValues) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = c.build(k, lv)
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
	seriesEvalScored
	seriesEvalPassed
	// seriesEvalScore is the score histogram of the first family; the
	// family f's is seriesEvalScore + f.
	seriesEvalScore
)

// seriesKey is one child of one vector: the vector and the ids of its
// label values in the vector's label order (unused trailing ids zero).
// Capped labels take their Capper's ids, so a key hashes and compares as
// a few integers; the fixed values (outcome, token type) take the ids
// below.
type seriesKey struct {
	vec        vecID
	a, b, c, d uint32
}

// Ids of the fixed label values.
const (
	idOutcomeOK uint32 = iota
	idOutcomeFailed
	idOutcomeError
)

const (
	idTokenInput uint32 = iota
	idTokenOutput
)

// seriesCaches holds the exporter's children caches. Children are created
// on first use, so a series appears only once it has been observed.
type seriesCaches struct {
	counters  *children[prometheus.Counter]
	observers *children[prometheus.Observer]
}

func newSeriesCaches(m *metrics) seriesCaches {
	return seriesCaches{
		counters: newChildren(func(k seriesKey, l labelValues) prometheus.Counter {
			switch k.vec {
			case seriesTrajectories:
				return m.trajectories.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesToolCalls:
				return m.toolCalls.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesEvalScored:
				return m.evalScored.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesEvalPassed:
				return m.evalPassed.WithLabelValues(l[0], l[1], l[2], l[3])
			default:
				return m.llmTokens.WithLabelValues(l[0], l[1], l[2], l[3])
			}
		}),
		observers: newChildren(func(k seriesKey, l labelValues) prometheus.Observer {
			switch k.vec {
			case seriesTrajectoryDuration:
				return m.trajectoryDuration.WithLabelValues(l[0], l[1], l[2])
			case seriesToolCallDuration:
				return m.toolCallDuration.WithLabelValues(l[0], l[1], l[2])
			default:
				return m.evalScore[k.vec-seriesEvalScore].WithLabelValues(l[0], l[1], l[2], l[3])
			}
		}),
	}
}

// label is a label value with its id.
type label struct {
	v  string
	id uint32
}

// counter returns the cached counter child.
func (c seriesCaches) counter(s vecID, a, b, cc, d label) prometheus.Counter {
	return c.counters.get(seriesKey{s, a.id, b.id, cc.id, d.id}, labelValues{a.v, b.v, cc.v, d.v})
}

// observer returns the cached histogram child.
func (c seriesCaches) observer(s vecID, a, b, cc, d label) prometheus.Observer {
	return c.observers.get(seriesKey{s, a.id, b.id, cc.id, d.id}, labelValues{a.v, b.v, cc.v, d.v})
}
