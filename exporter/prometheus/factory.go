package prometheus

import "github.com/evalsidecar/evalsidecar/exporter"

// NewFactory returns the exporter's factory: its block is
// exporters.prometheus, with DefaultConfig's defaults. It is always on.
func NewFactory() exporter.Factory {
	return exporter.NewFactory("prometheus", DefaultConfig, nil, New)
}
