package stage

import "github.com/evalsidecar/evalsidecar/scorer"

// Metrics returns the judge metrics, in configuration order. A nil Stage
// has none.
func (s *Stage) Metrics() []scorer.Metric {
	if s == nil {
		return nil
	}
	out := make([]scorer.Metric, len(s.metrics))
	for i := range s.metrics {
		out[i] = s.metrics[i].Metric
	}
	return out
}
