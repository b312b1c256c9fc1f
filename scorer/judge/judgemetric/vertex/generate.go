package vertex

import (
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// Limits on the rubrics a judge generates.
const (
	maxRubrics   = 32   // further questions are dropped
	maxRubricLen = 1000 // bytes; longer questions are cut
)

// ParseQuestions parses a rubric-generation answer {"questions": [...]}
// (metrics.md §7.2; a ```json fence is accepted). Questions are trimmed,
// cut to 1000 bytes, empty ones and duplicates (ignoring case and
// whitespace) dropped, and at most 32 kept. No questions, a missing
// "questions" field or a wrong type is an invalid_response error, never
// an empty rubric set.
func ParseQuestions(answer string) ([]string, error) {
	var a struct {
		Questions *[]string `json:"questions"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	if a.Questions == nil {
		return nil, judgemetric.Unparseable("answer has no questions")
	}
	seen := make(map[string]bool)
	var out []string
	for _, q := range *a.Questions {
		q = capText(strings.TrimSpace(q), maxRubricLen)
		k := normalize(q)
		if k == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, q)
		if len(out) == maxRubrics {
			break
		}
	}
	if len(out) == 0 {
		return nil, judgemetric.Unparseable("answer has no questions")
	}
	return out, nil
}

// questionsSchema is the structured-output schema of a generation answer.
func questionsSchema() *judge.Schema {
	return judgemetric.ObjectSchema("rubric_questions", "questions", judgemetric.Array(judgemetric.Type("string")))
}
