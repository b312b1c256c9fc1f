package text

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricExactMatch is the id of Vertex AI's exact_match metric.
const MetricExactMatch = "exact_match"

// exactMatch is Vertex AI's exact_match (ExactMatchSpec: "returns 1 if
// prediction and reference exactly matches, otherwise 0").
//
// Formula: 1 when Response and Reference are the same bytes, else 0.
// Vertex computes it server-side and documents no case folding,
// whitespace stripping or Unicode normalisation, so none is done: "Paris "
// against "Paris" is 0 (the literal reading; a server that strips would
// give 1). Needs a response and a reference; an empty pair that was
// observed matches (1).
type exactMatch struct{}

// Name returns "exact_match".
func (exactMatch) Name() string { return MetricExactMatch }

// Needs requires the response and the reference.
func (exactMatch) Needs() scorer.Inputs { return scorer.InResponse | scorer.InReference }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (exactMatch) Inline() {}

// Score returns 1 for byte-equal strings, else 0.
func (exactMatch) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	s := 0.0
	if in.Response == in.Reference {
		s = 1
	}
	return scorer.Result{Metric: MetricExactMatch, Score: s}, nil
}
