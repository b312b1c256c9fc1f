package judgemetric

import "github.com/evalsidecar/evalsidecar/scorer"

// Factory builds one judge metric from its parameters and the judges.
type Factory func(scorer.Params, Deps) (scorer.Metric, error)

// Entry is a judge metric id, its factory and the semantics of its
// scores.
type Entry struct {
	ID        string
	New       Factory
	Semantics scorer.Semantics
}

// Share is the semantics of a judge's 0–1 score.
func Share() scorer.Semantics {
	return scorer.Ratio(scorer.HigherIsBetter, "the judge's 0–1 score")
}

// Binary is the semantics of a judge's 1 (yes) or 0 (no) verdict; it
// passes at 1.
func Binary() scorer.Semantics {
	return scorer.Ratio(scorer.HigherIsBetter, "the judge's verdict: 1 yes, 0 no").WithPass(">=", 1)
}

// RegisterAll registers every entry on r, each factory bound to deps.
func RegisterAll(r *scorer.Registry, deps Deps, entries ...Entry) error {
	for _, e := range entries {
		build := e.New
		if err := r.RegisterAll(scorer.Entry{Name: e.ID, Semantics: e.Semantics, New: func(params map[string]any) (scorer.Metric, error) {
			return build(scorer.Params(params), deps)
		}}); err != nil {
			return err
		}
	}
	return nil
}
