package baseline

import (
	"time"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Config names the baseline release of online pairwise evaluation:
//
//	judge:
//	  baseline:
//	    version: "1.4.0"  # service.version of the baseline release, or previous
//	    max_runs: 10000   # baseline runs kept in memory, least recently used evicted first
//	    lookback: 168h    # how far back ClickHouse is searched for a baseline run
type Config struct {
	// Version is the service.version of the baseline release: runs of
	// any other release that carry an eval case id are candidates,
	// compared with the latest baseline run of the same case. The value
	// "previous" (VersionPrevious) compares every release with the
	// release of the same service whose first run came latest before its
	// own (as the Agent quality dashboard's release comparison does).
	// Empty turns online pairwise evaluation off.
	Version string `yaml:"version"`
	// MaxRuns bounds the baseline runs kept in memory, one per (service,
	// case id, user input); the least recently used is evicted first.
	MaxRuns int `yaml:"max_runs"`
	// Lookback bounds how far back the ClickHouse trajectories table is
	// searched for a baseline run (with the ClickHouse exporter on).
	Lookback time.Duration `yaml:"lookback"`
}

// VersionPrevious, as Version, compares each release with the one before
// it.
const VersionPrevious = "previous"

// DefaultConfig returns the defaults: no baseline release, 10000 runs
// kept, a 7-day ClickHouse lookback.
func DefaultConfig() Config {
	return Config{MaxRuns: 10000, Lookback: 7 * 24 * time.Hour}
}

// Enabled reports whether a baseline release is configured.
func (c Config) Enabled() bool { return c.Version != "" }

// Validate reports every invalid key, relative to the section.
func (c Config) Validate() error {
	var v errs.Checks
	v.Check(c.MaxRuns <= 0, "max_runs: must be > 0, got %d", c.MaxRuns)
	v.Check(c.Lookback <= 0, "lookback: must be > 0, got %s", c.Lookback)
	return v.Err()
}
