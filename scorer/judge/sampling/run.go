package sampling

import "github.com/evalsidecar/evalsidecar/agentrun"

// Run is what a Policy looks at to decide whether to judge one run.
type Run struct {
	TraceID        string
	Service        string
	ServiceVersion string
	Environment    string
	Agent          string
	Attributes     map[string]string

	// Failed is set when the run itself failed.
	Failed bool
	// ToolErrors counts the run's tool calls that returned an error.
	ToolErrors int

	// Score looks up the run's deterministic score for a metric id; ok is
	// false when the metric did not score the run. Nil means no scores.
	Score func(metric string) (score float64, ok bool)
}

// RunOf returns the Run of a trajectory, with score as its score lookup
// (nil for none).
func RunOf(t *agentrun.Trajectory, score func(metric string) (float64, bool)) Run {
	r := Run{
		TraceID:        t.TraceID,
		Service:        t.Service,
		ServiceVersion: t.ServiceVersion,
		Environment:    t.Environment,
		Agent:          t.Agent,
		Attributes:     t.Attributes,
		Failed:         t.Failed,
		Score:          score,
	}
	for i := range t.ToolCalls {
		if t.ToolCalls[i].Error != "" {
			r.ToolErrors++
		}
	}
	return r
}

// score looks a metric's score up, treating a nil lookup as no scores.
func (r *Run) score(metric string) (float64, bool) {
	if r.Score == nil {
		return 0, false
	}
	return r.Score(metric)
}
