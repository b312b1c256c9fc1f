package text

import "github.com/evalsidecar/evalsidecar/scorer"

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
func exactMatch(in *scorer.Instance) (scorer.Result, error) {
	s := 0.0
	if in.Response == in.Reference {
		s = 1
	}
	return scorer.Result{Score: s}, nil
}
