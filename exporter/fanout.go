package exporter

import (
	"context"
	"errors"
	"slices"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Fanout sends each evaluation to several exporters. It implements
// scorer.Sink and Exporter.
type Fanout struct {
	exps []Exporter
}

var _ Exporter = (*Fanout)(nil)

// NewFanout returns a Fanout over exps, in order. Nil exporters are skipped.
// The slice is copied.
func NewFanout(exps ...Exporter) *Fanout {
	return &Fanout{exps: slices.DeleteFunc(slices.Clone(exps), func(e Exporter) bool { return e == nil })}
}

// Export hands e to every exporter, even when some fail, and returns their
// errors joined (nil when all succeeded).
func (f *Fanout) Export(ctx context.Context, e *scorer.Evaluation) error {
	var errs []error
	for _, x := range f.exps {
		if err := x.Export(ctx, e); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Start starts the exporters in order. When one fails, those already
// started are shut down (in reverse order) and the joined errors returned,
// so that a failed Start leaves nothing running.
func (f *Fanout) Start(ctx context.Context) error {
	for i, x := range f.exps {
		if err := x.Start(ctx); err != nil {
			return errors.Join(err, shutdownAll(ctx, f.exps[:i]))
		}
	}
	return nil
}

// Shutdown shuts every exporter down in reverse order of Start and returns
// their errors joined.
func (f *Fanout) Shutdown(ctx context.Context) error {
	return shutdownAll(ctx, f.exps)
}

func shutdownAll(ctx context.Context, exps []Exporter) error {
	var errs []error
	for i := len(exps) - 1; i >= 0; i-- {
		if err := exps[i].Shutdown(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
