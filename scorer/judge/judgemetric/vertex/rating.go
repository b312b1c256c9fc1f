package vertex

import (
	"math"

	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

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
