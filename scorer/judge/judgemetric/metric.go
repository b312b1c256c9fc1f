package judgemetric

import (
	"context"
	"slices"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
)

// Base is what every judge metric holds: its id, its judge and the
// metric's sanitizer factory. It gives the metric Name, JudgeName and a
// Caller per evaluation.
type Base struct {
	ID     string
	Judge  judge.Judge
	NewSan func() judge.Sanitizer
	// Temperature, when set, is put on every request that sets none
	// (see SamplingTemperature).
	Temperature *float64
}

// NewBase checks that p holds no parameter but "judge" and known (an
// unknown one's error lists them in that order; known may place "judge"
// itself), and resolves the judge of metric id (see Deps.Resolve).
func NewBase(id string, p scorer.Params, deps Deps, known ...string) (Base, error) {
	if !slices.Contains(known, "judge") {
		known = append([]string{"judge"}, known...)
	}
	if err := p.CheckKnown(known...); err != nil {
		return Base{}, err
	}
	j, newSan, err := deps.Resolve(id, p)
	return Base{ID: id, Judge: j, NewSan: newSan}, err
}

// Name returns the metric id.
func (b *Base) Name() string { return b.ID }

// JudgeName returns the name of the metric's judge.
func (b *Base) JudgeName() string { return b.Judge.Name() }

// Caller returns the Caller of one evaluation.
func (b *Base) Caller() *Caller {
	return &Caller{metric: *b}
}

// Ask sends the request build makes (see Caller.Call) and parses the
// answer with parse.
func Ask[T any](ctx context.Context, c *Caller, build func(judge.Sanitizer) *judge.Request, parse func(string) (T, error)) (T, error) {
	ans, err := c.Call(ctx, build)
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(ans)
}

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
