// Package calibration measures, online, how well the judge agrees with
// people: it pairs each feedback record with the judge's score of the
// same run and metric, whichever arrives first waiting for the other in a
// bounded cache, and exports the agreement over each metric's last
// labelled runs (Cohen's kappa, Spearman's rank correlation, mean absolute
// error; scorer/aggregate computes them) as Prometheus gauges, with the
// configured floor beside it for the alert.
package calibration

import (
	"maps"
	"slices"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Config is judge.calibration.
type Config struct {
	// Window is how many of a metric's most recent labelled runs (judge
	// score and feedback paired) the agreement is computed over.
	Window int `yaml:"window"`
	// MinLabels is how many labelled runs a metric needs in its window
	// before its agreement is exported.
	MinLabels int `yaml:"min_labels"`
	// MaxPending bounds each of the two waiting rooms: judge scores
	// waiting for feedback and feedback waiting for its judge score. The
	// least recently used entry is evicted, and counted, beyond it.
	MaxPending int `yaml:"max_pending"`
	// Floor is the agreement each metric is expected to keep, by metric
	// name: exported as evalsidecar_judge_agreement_floor, which the
	// EvalSidecarJudgeAgreementLow alert compares the agreement with.
	Floor map[string]float64 `yaml:"floor"`
}

// DefaultConfig is 200 runs per window, 20 before agreement is
// exported, 10000 waiting entries each, and no floor.
func DefaultConfig() Config {
	return Config{Window: 200, MinLabels: 20, MaxPending: 10000, Floor: map[string]float64{}}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(c.Window <= 0, "window: must be > 0, got %d", c.Window)
	v.Check(c.MinLabels <= 0 || c.MinLabels > c.Window, "min_labels: must be between 1 and window (%d), got %d", c.Window, c.MinLabels)
	v.Check(c.MaxPending <= 0, "max_pending: must be > 0, got %d", c.MaxPending)
	for _, m := range slices.Sorted(maps.Keys(c.Floor)) {
		f := c.Floor[m]
		v.Check(!(f >= -1 && f <= 1), "floor.%s: must be between -1 and 1 (kappa or Spearman), got %v", m, f)
	}
	return v.Err()
}
