package facts

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics lists the fact-checking metrics; they run by default on every
// run.
func Metrics() []scorer.Entry {
	return []scorer.Entry{
		{Name: MetricUnsupportedFacts, New: scorer.NoParams(scorer.Func(MetricUnsupportedFacts, scorer.InResponse, unsupportedFacts)),
			Semantics: scorer.Ratio(scorer.LowerIsBetter, "share of the response's checkable facts found nowhere in the run").WithPass("<=", 0)},
	}
}
