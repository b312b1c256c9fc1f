package clickhouse

import "github.com/evalsidecar/evalsidecar/exporter"

// NewFactory returns the exporter's factory: its block is
// exporters.clickhouse, with DefaultConfig's defaults. enabled: true turns it on.
func NewFactory() exporter.Factory {
	return exporter.NewFactory("clickhouse", DefaultConfig, func(c Config) bool { return c.Enabled }, New)
}
