// Package memlimit keeps the sidecar's memory under a limit, as the
// OpenTelemetry Collector's memory_limiter does: past a soft limit the
// receiver refuses new data with the retryable OTLP answer before it
// decodes it, past the hard limit a garbage collection is forced, and the
// request bytes in flight are bounded before decompression and decoding.
package memlimit

import (
	"errors"
	"fmt"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Config is the memory_limiter block, with the Collector's keys and
// meanings. Sizes in MiB win over percentages, which are of the memory
// available to the process: the container's cgroup limit, else the
// machine's memory.
type Config struct {
	// Enabled turns the limiter on.
	Enabled bool `yaml:"enabled"`
	// CheckInterval is how often memory use is measured.
	CheckInterval time.Duration `yaml:"check_interval"`
	// LimitMiB is the hard limit: above it a garbage collection is forced.
	// GOMEMLIMIT is set to the soft limit at start unless the environment
	// sets GOMEMLIMIT.
	LimitMiB uint32 `yaml:"limit_mib"`
	// SpikeLimitMiB is the headroom below the hard limit kept for bursts
	// between checks: data is refused above limit - spike (the soft
	// limit), and the request bytes in flight are bounded by a quarter of
	// it. 0 means spike_limit_percentage when the limit is a percentage,
	// else 20% of limit_mib.
	SpikeLimitMiB uint32 `yaml:"spike_limit_mib"`
	// LimitPercentage is the hard limit as a percentage of the available
	// memory, used when limit_mib is 0.
	LimitPercentage uint32 `yaml:"limit_percentage"`
	// SpikeLimitPercentage is the spike limit as a percentage of the
	// available memory, used with limit_percentage when spike_limit_mib
	// is 0.
	SpikeLimitPercentage uint32 `yaml:"spike_limit_percentage"`
}

// DefaultConfig returns the documented defaults: on, checked every
// second, 80% of the available memory with 20% of it as spike headroom.
func DefaultConfig() Config {
	return Config{Enabled: true, CheckInterval: time.Second, LimitPercentage: 80, SpikeLimitPercentage: 20}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	if !c.Enabled {
		return nil
	}
	var v errs.Checks
	v.Check(c.CheckInterval <= 0, "check_interval: must be > 0, got %s", c.CheckInterval)
	v.Check(c.LimitMiB == 0 && (c.LimitPercentage == 0 || c.LimitPercentage > 100), "limit_mib or limit_percentage (1-100) must be set")
	v.Check(c.SpikeLimitPercentage > 100, "spike_limit_percentage: must be <= 100, got %d", c.SpikeLimitPercentage)
	return v.Err()
}

// limits returns the hard and soft limits in bytes for available bytes of
// memory (0: unknown).
func (c Config) limits(available uint64) (hard, soft uint64, err error) {
	hard = uint64(c.LimitMiB) << 20
	if hard == 0 {
		if available == 0 {
			return 0, 0, errors.New("the memory available is unknown: set limit_mib")
		}
		hard = available / 100 * uint64(c.LimitPercentage)
	}
	spike := uint64(c.SpikeLimitMiB) << 20
	if spike == 0 {
		spike = hard / 5
		if c.LimitMiB == 0 && c.SpikeLimitPercentage > 0 {
			spike = available / 100 * uint64(c.SpikeLimitPercentage)
		}
	}
	if spike >= hard {
		return 0, 0, fmt.Errorf("spike limit (%d MiB) must be below the limit (%d MiB)", spike>>20, hard>>20)
	}
	return hard, hard - spike, nil
}
