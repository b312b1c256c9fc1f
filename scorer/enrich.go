package scorer

import "context"

// Enricher adds data to an online Instance before its metrics run, for
// example the reference of a canary run found by its case id. Enrich
// reports whether it changed in. It must be safe for concurrent use.
type Enricher interface {
	Enrich(ctx context.Context, in *Instance) bool
}

// SetEnricher makes the workers call en on every Instance built from a
// submitted trajectory, before Evaluate. Call it before Start.
func (e *Engine) SetEnricher(en Enricher) { e.enricher = en }
