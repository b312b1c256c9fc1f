// Package catalog assembles the deterministic metrics every command can
// build: each family package lists its metrics, and the catalog registers
// them all, with the "cel" custom metric type. A new family is one line
// here; a new metric is one file in its family and one line in the
// family's Metrics list.
package catalog

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/celmetric"
	"github.com/evalsidecar/evalsidecar/scorer/facts"
	"github.com/evalsidecar/evalsidecar/scorer/runhealth"
	"github.com/evalsidecar/evalsidecar/scorer/text"
	"github.com/evalsidecar/evalsidecar/scorer/toolmatch"
)

// defaults are the families run on every run when scorer.metrics is not
// set, in order.
func defaults() []scorer.Entry {
	return append(runhealth.Metrics(), facts.Metrics()...)
}

// NewRegistry returns a registry with every deterministic metric
// registered: the defaults first, then the metrics that run only when
// configured (reference-based and parameterised metrics), then "cel".
func NewRegistry() *scorer.Registry {
	r := scorer.NewRegistry()
	for _, family := range [][]scorer.Entry{defaults(), text.Metrics(), toolmatch.Metrics()} {
		// A fresh registry and distinct ids: registering cannot fail.
		_ = r.RegisterAll(family...)
	}
	_ = celmetric.Register(r)
	return r
}

// DefaultNames returns the ids of the metrics run on every run by
// default, in order.
func DefaultNames() []string {
	var names []string
	for _, e := range defaults() {
		names = append(names, e.Name)
	}
	return names
}

// DefaultMetrics returns the scorer.metrics default: every default metric
// with its default parameters.
func DefaultMetrics() []scorer.MetricConfig {
	var ms []scorer.MetricConfig
	for _, n := range DefaultNames() {
		ms = append(ms, scorer.MetricConfig{Name: n})
	}
	return ms
}
