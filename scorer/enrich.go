package scorer

import "context"

// Enricher adds data to an online Instance before its metrics run, for
// example the reference of a canary run found by its case id. Enrich
// reports whether it changed in. It must be safe for concurrent use.
type Enricher interface {
	Enrich(ctx context.Context, in *Instance) bool
}
