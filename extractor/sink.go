package extractor

import (
	"context"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Sink receives finished trajectories. Submit must not block for long
// unless ctx is marked by queue.WithWait: a full sink returns an error
// and counts the drop itself (evalsidecar_dropped_total), so that one
// loss is counted once.
type Sink interface {
	Submit(ctx context.Context, t *agentrun.Trajectory) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, t *agentrun.Trajectory) error

// Submit calls f.
func (f SinkFunc) Submit(ctx context.Context, t *agentrun.Trajectory) error { return f(ctx, t) }
