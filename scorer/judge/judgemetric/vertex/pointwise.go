package vertex

import (
	"context"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// pointwise is a metric rated by one judge call on a Template's scale.
//
// Inputs: the response plus the template's input variables. Scale: the
// rating rubric's keys. Calls per run: 1. Score: the judge's rating, which
// must be one of the rubric's keys; Label: the rating's label.
type pointwise struct {
	id     string
	needs  scorer.Inputs
	vars   []inputVar
	scale  []scalePoint
	system string
	schema *judge.Schema
	judge  judge.Judge
	newSan func() judge.Sanitizer
}

// newPointwise builds a pointwise metric; vars exclude the response,
// which is always the rated text.
func newPointwise(id string, t *Template, vars []inputVar, j judge.Judge, newSan func() judge.Sanitizer) (*pointwise, error) {
	pts, err := t.scale()
	if err != nil {
		return nil, err
	}
	return &pointwise{
		id:     id,
		needs:  scorer.InResponse | needsOf(vars),
		vars:   vars,
		scale:  pts,
		system: t.system(pts),
		schema: ratingSchema(pts),
		judge:  j,
		newSan: newSan,
	}, nil
}

// Name returns the metric id.
func (m *pointwise) Name() string { return m.id }

// Semantics declares the rubric's scale: a 0/1 scale is a verdict that
// passes at 1, a scale from negative to positive rates a deviation either
// way (verbosity), any other is a rating where higher is better.
func (m *pointwise) Semantics() scorer.Semantics {
	lo, hi := m.scale[0].value, m.scale[len(m.scale)-1].value
	switch {
	case len(m.scale) == 2 && lo == 0 && hi == 1:
		return judgemetric.Binary()
	case lo < 0 && hi > 0:
		return scorer.Rating(scorer.DirectionNone, lo, hi, "the judge's rating; 0 is best")
	}
	return scorer.Rating(scorer.HigherIsBetter, lo, hi, "the judge's rating")
}

// Needs returns the response plus the input variables' fields.
func (m *pointwise) Needs() scorer.Inputs { return m.needs }

// JudgeName returns the configured judge.
func (m *pointwise) JudgeName() string { return m.judge.Name() }

// Score asks the judge for a rating of in's response.
func (m *pointwise) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	parts, err := resolve(in, m.vars)
	if err != nil {
		return scorer.Result{}, err
	}
	c := judgemetric.NewCaller(m.judge, m.newSan, m.id)
	ans, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
		return &judge.Request{
			System: m.system,
			Prompt: renderInputs(s, parts, &part{field: FieldResponse, text: in.Response}),
			Schema: m.schema,
		}
	})
	if err != nil {
		return scorer.Result{}, err
	}
	r, err := parseRating(ans, m.scale)
	if err != nil {
		return scorer.Result{}, err
	}
	res := scorer.Result{
		Score:       r.Score,
		Label:       r.Label,
		Explanation: capText(r.Explanation, maxExplanation),
		Details: map[string]any{
			"scale_min": m.scale[0].value,
			"scale_max": m.scale[len(m.scale)-1].value,
		},
	}
	c.Finish(&res)
	return res, nil
}
