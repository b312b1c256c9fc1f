package otelevents

import "github.com/evalsidecar/evalsidecar/exporter"

// NewFactory returns the exporter's factory: its block is
// exporters.otel_events, with DefaultConfig's defaults. enabled: true turns it on.
func NewFactory() exporter.Factory {
	return exporter.NewFactory("otel_events", DefaultConfig, func(c Config) bool { return c.Enabled }, New)
}
