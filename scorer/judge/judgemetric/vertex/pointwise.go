package vertex

import (
	"context"
	"math"

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
	judgemetric.Base
	vars   []inputVar // besides the response, which is always the rated text
	scale  []scalePoint
	system string
}

// newPointwise builds the pointwise metric of template t.
func newPointwise(b judgemetric.Base, t *Template, vars []inputVar) (*pointwise, error) {
	pts, err := t.scale()
	if err != nil {
		return nil, err
	}
	return &pointwise{Base: b, vars: vars, scale: pts, system: t.system(pts)}, nil
}

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
func (m *pointwise) Needs() scorer.Inputs { return scorer.InResponse | needsOf(m.vars) }

// Score asks the judge for a rating of in's response.
func (m *pointwise) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	parts, err := resolve(in, m.vars)
	if err != nil {
		return scorer.Result{}, err
	}
	c := m.Caller()
	r, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
		return &judge.Request{
			System: m.system,
			Prompt: renderInputs(s, parts, part{field: FieldResponse, text: in.Response}),
			Schema: ratingSchema(m.scale),
		}
	}, func(ans string) (Rating, error) { return parseRating(ans, m.scale) })
	if err != nil {
		return scorer.Result{}, err
	}
	return c.Finish(scorer.Result{
		Score:       r.Score,
		Label:       r.Label,
		Explanation: capText(r.Explanation, maxExplanation),
		Details: map[string]any{
			"scale_min": m.scale[0].value,
			"scale_max": m.scale[len(m.scale)-1].value,
		},
	}), nil
}

// Rating is a parsed pointwise answer.
type Rating struct {
	Score       float64
	Label       string
	Explanation string
}

// parseRating parses a pointwise answer {"explanation": string, "score":
// number}. The score must equal one of the scale's values; a missing
// field, a wrong type or a score off the scale is an invalid_response
// error.
func parseRating(answer string, pts []scalePoint) (Rating, error) {
	var a struct {
		Explanation *string  `json:"explanation"`
		Score       *float64 `json:"score"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return Rating{}, err
	}
	if a.Score == nil {
		return Rating{}, judgemetric.Unparseable("answer has no score")
	}
	if a.Explanation == nil {
		return Rating{}, judgemetric.Unparseable("answer has no explanation")
	}
	s := *a.Score
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return Rating{}, judgemetric.Unparseable("score %v is not a number", s)
	}
	for _, p := range pts {
		if p.value == s {
			return Rating{Score: s, Label: p.label, Explanation: *a.Explanation}, nil
		}
	}
	return Rating{}, judgemetric.Unparseable("score %v is not on the scale %s", s, scaleList(pts))
}
