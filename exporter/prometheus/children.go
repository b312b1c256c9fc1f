package prometheus

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// labelValues are the label values of one child in its vector's label
// order (unused trailing values empty).
type labelValues [4]string

// children caches the label children of metric vectors by series key, so
// the hot path does not validate and hash label values on every
// observation, and holds each vector to a series budget: once a vector has
// max series, an observation of a new combination goes to the vector's
// other row instead, the series whose first three labels (service, version
// or agent, agent or tool, model) are "other" and whose last label (outcome,
// metric id, token type) is kept, so totals stay whole and the rows that
// exist keep their values.
type children[V any] struct {
	mu     sync.RWMutex
	m      map[seriesKey]V
	series map[vecID]int // series created, per vector
	max    int
	folded func(vecID) // counts one combination folded into the other row
	build  func(seriesKey, labelValues) V
}

func newChildren[V any](max int, folded func(vecID), build func(seriesKey, labelValues) V) *children[V] {
	return &children[V]{m: make(map[seriesKey]V), series: make(map[vecID]int), max: max, folded: folded, build: build}
}

// get returns the child for k, building it from lv, the label values k
// stands for, on first use, or the vector's other row once the vector has
// used its budget.
func (c *children[V]) get(k seriesKey, lv labelValues) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	if other := (seriesKey{k.vec, idOther, idOther, idOther, k.d}); k != other && c.series[k.vec] >= c.max {
		c.folded(k.vec)
		k, lv = other, labelValues{ValueOther, ValueOther, ValueOther, lv[3]}
		if v, ok := c.m[k]; ok {
			return v
		}
	}
	v = c.build(k, lv)
	c.m[k] = v
	c.series[k.vec]++
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
	seriesSessions
	// seriesEvalScore is the score histogram of the first family; the
	// family f's is seriesEvalScore + f.
	seriesEvalScore
)

// vecNames are the metric names of the vectors.
var vecNames = [...]string{
	seriesTrajectories: MetricTrajectories, seriesTrajectoryDuration: MetricTrajectoryDuration,
	seriesToolCalls: MetricToolCalls, seriesToolCallDuration: MetricToolCallDuration, seriesLLMTokens: MetricLLMTokens,
	seriesEvalScored: MetricEvalScored, seriesEvalPassed: MetricEvalPassed, seriesSessions: MetricSessions,
	seriesEvalScore + vecID(familyRatio): MetricEvalScoreRatio, seriesEvalScore + vecID(familySeconds): MetricEvalScoreSeconds,
	seriesEvalScore + vecID(familyCount): MetricEvalScoreCount, seriesEvalScore + vecID(familyRating): MetricEvalScoreRating,
	seriesEvalScore + vecID(familyOther): MetricEvalScoreOther,
}

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

func newSeriesCaches(m *metrics, maxSeries int) seriesCaches {
	folded := func(v vecID) { m.seriesOverflow.WithLabelValues(vecNames[v]).Inc() }
	return seriesCaches{
		counters: newChildren(maxSeries, folded, func(k seriesKey, l labelValues) prometheus.Counter {
			switch k.vec {
			case seriesTrajectories:
				return m.trajectories.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesToolCalls:
				return m.toolCalls.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesEvalScored:
				return m.evalScored.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesEvalPassed:
				return m.evalPassed.WithLabelValues(l[0], l[1], l[2], l[3])
			case seriesSessions: // (service, agent, -, outcome): the other row keeps the outcome
				return m.sessions.WithLabelValues(l[0], l[1], l[3])
			default:
				return m.llmTokens.WithLabelValues(l[0], l[1], l[2], l[3])
			}
		}),
		observers: newChildren(maxSeries, folded, func(k seriesKey, l labelValues) prometheus.Observer {
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
