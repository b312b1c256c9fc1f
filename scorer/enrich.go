package scorer

import "context"

// Enricher adds data to an online Instance before its metrics run, for
// example the reference of a canary run found by its case id. Enrich
// reports whether it changed in. It must be safe for concurrent use.
type Enricher interface {
	Enrich(ctx context.Context, in *Instance) bool
}

// Enrichers runs several enrichers in order; it reports whether any
// changed the instance.
type Enrichers []Enricher

// Enrich calls every enricher of es on in.
func (es Enrichers) Enrich(ctx context.Context, in *Instance) bool {
	changed := false
	for _, e := range es {
		changed = e.Enrich(ctx, in) || changed
	}
	return changed
}
