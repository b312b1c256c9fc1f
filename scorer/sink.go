package scorer

import "context"

// Sink receives evaluations from the engine. Export must not block for
// long: exporters enqueue and write in the background.
type Sink interface {
	Export(ctx context.Context, e *Evaluation) error
}
