package vertex

import (
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// QuestionVerdict is one rubric's verdict in one judge answer.
type QuestionVerdict struct {
	Question string
	Yes      bool
	Reason   string
}

// ParseVerdicts parses a rubric-validation answer {"verdicts":
// [{"rubric": string, "verdict": bool, "reasoning": string}]} against the
// rubrics that were asked about. Verdicts are matched to rubrics by text,
// ignoring case and whitespace differences, and a paraphrased rubric by
// its position (judgemetric.MatchRubrics). An extra verdict is dropped; a
// rubric without a verdict, a rubric judged twice or an entry with a
// missing field makes the whole answer invalid (invalid_response): the
// score is never computed over a subset of the rubrics. The verdicts are
// returned in the order of rubrics.
func ParseVerdicts(answer string, rubrics []string) ([]QuestionVerdict, error) {
	var a struct {
		Verdicts *[]struct {
			Rubric    *string `json:"rubric"`
			Verdict   *bool   `json:"verdict"`
			Reasoning *string `json:"reasoning"`
		} `json:"verdicts"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	if a.Verdicts == nil {
		return nil, judgemetric.Unparseable("answer has no verdicts")
	}
	answered := make([]string, len(*a.Verdicts))
	for k, v := range *a.Verdicts {
		if v.Rubric == nil || v.Verdict == nil || v.Reasoning == nil {
			return nil, judgemetric.Unparseable("verdict %d lacks rubric, verdict or reasoning", k)
		}
		answered[k] = *v.Rubric
	}
	match := judgemetric.MatchRubrics(rubrics, answered, normalize)
	out := make([]QuestionVerdict, len(rubrics))
	seen := make([]bool, len(rubrics))
	for k, v := range *a.Verdicts {
		i := match[k]
		if i < 0 {
			continue
		}
		if seen[i] {
			return nil, judgemetric.Unparseable("rubric %q judged twice", rubrics[i])
		}
		seen[i] = true
		out[i] = QuestionVerdict{Question: rubrics[i], Yes: *v.Verdict, Reason: *v.Reasoning}
	}
	for i, ok := range seen {
		if !ok {
			return nil, judgemetric.Unparseable("no verdict for rubric %q", rubrics[i])
		}
	}
	return out, nil
}

// verdictSchema is the structured-output schema of a validation answer.
func verdictSchema() *judge.Schema {
	item := judgemetric.Object("rubric", judgemetric.Type("string"), "reasoning", judgemetric.Type("string"), "verdict", judgemetric.Type("boolean"))
	return judgemetric.ObjectSchema("rubric_verdicts", "verdicts", judgemetric.Array(item))
}
