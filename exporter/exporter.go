// Package exporter delivers evaluations to their destinations. Each
// destination (Prometheus, JSON lines, ...) is an Exporter in its own
// subpackage, made by its Factory from its config block; Fanout sends
// every evaluation to all of them.
package exporter

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Exporter is a scorer.Sink with a lifecycle. Export must not block for
// long: an exporter that writes in the background enqueues and returns.
type Exporter interface {
	scorer.Sink
	// Start prepares the exporter (opens files, starts background work).
	Start(ctx context.Context) error
	// Shutdown drains what was accepted, within ctx, and releases resources.
	Shutdown(ctx context.Context) error
}

// MetricsDescriber is an exporter that wants the configured metrics (ids
// and scorer.Semantics, deterministic and judge) before Start, for
// example to describe them in a table or to create their series.
type MetricsDescriber interface {
	DescribeMetrics(ms []scorer.Metric)
}
