package extractor

import (
	"context"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Sink receives finished trajectories. Submit must not block for long: a
// full sink returns an error, and the caller counts the drop.
type Sink interface {
	Submit(ctx context.Context, t *agentrun.Trajectory) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, t *agentrun.Trajectory) error

// Submit calls f.
func (f SinkFunc) Submit(ctx context.Context, t *agentrun.Trajectory) error { return f(ctx, t) }
