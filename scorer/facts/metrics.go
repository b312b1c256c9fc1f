package facts

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the fact-checking metrics; they run by default on every
// run.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricUnsupportedFacts, New: scorer.NoParams(unsupportedFacts{})},
	}
}
