package jsonl

import "github.com/evalsidecar/evalsidecar/exporter"

// NewFactory returns the exporter's factory: its block is
// exporters.jsonl, with DefaultConfig's defaults. enabled: true turns it on.
func NewFactory() exporter.Factory {
	return exporter.NewFactory("jsonl", DefaultConfig, func(c Config) bool { return c.Enabled }, New)
}
