package extractor

import "context"

// Sink receives finished trajectories. Submit must not block for long: a
// full sink returns an error, and the caller counts the drop.
type Sink interface {
	Submit(ctx context.Context, t *Trajectory) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, t *Trajectory) error

// Submit calls f.
func (f SinkFunc) Submit(ctx context.Context, t *Trajectory) error { return f(ctx, t) }
