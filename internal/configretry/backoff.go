// Package configretry is the retry_on_failure block of the OpenTelemetry
// Collector: the same keys, meanings and checks as
// go.opentelemetry.io/collector/config/configretry.BackOffConfig.
//
// The Collector's type is not used itself: its fields carry mapstructure
// tags for the Collector's confmap loader, and gopkg.in/yaml.v3, which
// loads this configuration, ignores them (initial_interval would silently
// keep its default); confmap would also bring koanf and zap along.
package configretry

import (
	"math/rand/v2"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// BackOffConfig is an exponential backoff with randomised waits.
type BackOffConfig struct {
	// Enabled turns retrying on; off, a failed send is not retried.
	Enabled bool `yaml:"enabled"`
	// InitialInterval is the wait after the first failure.
	InitialInterval time.Duration `yaml:"initial_interval"`
	// RandomizationFactor randomises each wait by ± this fraction.
	RandomizationFactor float64 `yaml:"randomization_factor"`
	// Multiplier grows the wait after each failure.
	Multiplier float64 `yaml:"multiplier"`
	// MaxInterval caps the wait.
	MaxInterval time.Duration `yaml:"max_interval"`
	// MaxElapsedTime is how long one item is retried before it is given
	// up; 0 retries it until it succeeds.
	MaxElapsedTime time.Duration `yaml:"max_elapsed_time"`
}

// Validate reports every invalid key, named as in the configuration.
func (c BackOffConfig) Validate() error {
	if !c.Enabled {
		return nil
	}
	var v errs.Checks
	v.Check(c.InitialInterval <= 0, "initial_interval: must be > 0, got %s", c.InitialInterval)
	v.Check(c.RandomizationFactor < 0 || c.RandomizationFactor > 1, "randomization_factor: must be in [0, 1], got %g", c.RandomizationFactor)
	v.Check(c.Multiplier < 1, "multiplier: must be >= 1, got %g", c.Multiplier)
	v.Check(c.MaxInterval < c.InitialInterval, "max_interval: must be >= initial_interval, got %s", c.MaxInterval)
	v.Check(c.MaxElapsedTime < 0, "max_elapsed_time: must be >= 0, got %s", c.MaxElapsedTime)
	v.Check(c.MaxElapsedTime > 0 && c.MaxElapsedTime < c.MaxInterval, "max_elapsed_time: must be 0 or >= max_interval, got %s", c.MaxElapsedTime)
	return v.Err()
}

// Wait is the wait before retry n (0 for the first retry):
// initial_interval × multiplier^n, capped at max_interval, then randomised
// by ± randomization_factor.
func (c BackOffConfig) Wait(n int) time.Duration {
	d := float64(c.InitialInterval)
	for i := 0; i < n && d < float64(c.MaxInterval); i++ {
		d *= c.Multiplier
	}
	d = min(d, float64(c.MaxInterval))
	if c.RandomizationFactor > 0 {
		d *= 1 + c.RandomizationFactor*(2*rand.Float64()-1)
	}
	return time.Duration(d)
}

// GiveUp reports whether an item first tried at first should no longer be
// retried at now: retrying is off, or max_elapsed_time has passed.
func (c BackOffConfig) GiveUp(first, now time.Time) bool {
	return !c.Enabled || c.MaxElapsedTime > 0 && now.Sub(first) >= c.MaxElapsedTime
}
