// Package prometheus exports evaluations as Prometheus metrics and serves
// the sidecar's /metrics, /healthz and /readyz endpoints.
package prometheus

import (
	"fmt"
	"net"
	"strconv"

	"github.com/evalsidecar/evalsidecar/internal/errs"
)

// Config configures the Prometheus exporter and its HTTP server.
type Config struct {
	// Endpoint is the host:port the metrics and health server listens on.
	Endpoint string `yaml:"endpoint"`
	// MaxLabelValues caps the distinct values of each of the labels
	// service, service_version, agent, tool and model; further values
	// become "other".
	MaxLabelValues int `yaml:"max_label_values"`
	// MaxSeries bounds the series of each metric family the exporter
	// writes (label combinations, histograms counted once): past it, new
	// combinations are folded into the family's "other" row and counted in
	// evalsidecar_exporter_series_overflow_total.
	MaxSeries int `yaml:"max_series"`
	// ExemplarsPerSecond bounds the observations per second that carry a
	// trace_id exemplar (0 disables exemplars). Prometheus keeps one
	// exemplar per bucket, so a few hundred per second keep them fresh.
	ExemplarsPerSecond int `yaml:"exemplars_per_second"`
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Endpoint:           "127.0.0.1:9464",
		MaxLabelValues:     200,
		MaxSeries:          500,
		ExemplarsPerSecond: 200,
	}
}

// Validate reports every invalid key.
func (c Config) Validate() error {
	var v errs.Checks
	_, port, err := net.SplitHostPort(c.Endpoint)
	if err != nil {
		v.Add(fmt.Errorf("endpoint: %q is not host:port: %w", c.Endpoint, err))
	}
	_, portErr := strconv.ParseUint(port, 10, 16)
	v.Check(err == nil && portErr != nil, "endpoint: port %q is not a number in 0..65535", port)
	v.Check(c.MaxLabelValues <= 0, "max_label_values: must be > 0, got %d", c.MaxLabelValues)
	v.Check(c.MaxSeries <= 0, "max_series: must be > 0, got %d", c.MaxSeries)
	v.Check(c.ExemplarsPerSecond < 0, "exemplars_per_second: must be >= 0, got %d", c.ExemplarsPerSecond)
	return v.Err()
}
