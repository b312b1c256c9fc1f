package queue

import "context"

type waitKey struct{}

// WithWait marks ctx so that Put waits for room instead of refusing. A
// stage that must not lose what it already accepted (a shutdown that
// drains the pipeline, a background release) passes such a context down.
func WithWait(ctx context.Context) context.Context {
	return context.WithValue(ctx, waitKey{}, true)
}

// Waits reports whether ctx was marked by WithWait.
func Waits(ctx context.Context) bool {
	w, _ := ctx.Value(waitKey{}).(bool)
	return w
}

// Put queues item: when ctx is marked by WithWait it waits for room until
// ctx ends (OfferWait), otherwise it does not wait (Offer).
func (q *Bounded[T]) Put(ctx context.Context, item T) error {
	if Waits(ctx) {
		return q.OfferWait(ctx, item)
	}
	return q.Offer(item)
}
