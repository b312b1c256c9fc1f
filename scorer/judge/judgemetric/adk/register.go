package adk

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// Register adds the package's metrics to r. Each factory resolves the
// metric's judge from its "judge" parameter (or deps' default judge) and
// rejects unknown parameters.
func Register(r *scorer.Registry, deps judgemetric.Deps) error {
	return judgemetric.RegisterAll(r, deps,
		judgemetric.Entry{ID: MetricHallucinations, New: newHallucinations, Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricRubricFinalResponse, New: newRubricMetric(MetricRubricFinalResponse, false), Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricRubricToolUse, New: newRubricMetric(MetricRubricToolUse, true), Semantics: judgemetric.Share()},
		judgemetric.Entry{ID: MetricFinalResponseMatchV2, New: newFinalMatch, Semantics: judgemetric.Share()},
	)
}
