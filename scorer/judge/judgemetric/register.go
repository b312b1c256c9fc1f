package judgemetric

import "github.com/evalsidecar/evalsidecar/scorer"

// Factory builds one judge metric from its parameters and the judges.
type Factory func(scorer.Params, Deps) (scorer.Metric, error)

// Entry is a judge metric id and its factory.
type Entry struct {
	ID  string
	New Factory
}

// RegisterAll registers every entry on r, each factory bound to deps.
func RegisterAll(r *scorer.Registry, deps Deps, entries ...Entry) error {
	for _, e := range entries {
		build := e.New
		if err := r.Register(e.ID, func(params map[string]any) (scorer.Metric, error) {
			return build(scorer.Params(params), deps)
		}); err != nil {
			return err
		}
	}
	return nil
}
