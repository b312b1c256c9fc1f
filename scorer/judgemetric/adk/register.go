package adk

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judgemetric"
)

// Register adds the package's metrics to r. Each factory resolves the
// metric's judge from its "judge" parameter (or deps' default judge) and
// rejects unknown parameters.
func Register(r *scorer.Registry, deps judgemetric.Deps) error {
	for _, f := range []struct {
		id  string
		new func(scorer.Params, judgemetric.Deps) (scorer.Metric, error)
	}{
		{MetricHallucinations, newHallucinations},
		{MetricRubricFinalResponse, newRubricMetric(MetricRubricFinalResponse, false)},
		{MetricRubricToolUse, newRubricMetric(MetricRubricToolUse, true)},
		{MetricFinalResponseMatchV2, newFinalMatch},
	} {
		build := f.new
		if err := r.Register(f.id, func(params map[string]any) (scorer.Metric, error) {
			return build(scorer.Params(params), deps)
		}); err != nil {
			return err
		}
	}
	return nil
}
