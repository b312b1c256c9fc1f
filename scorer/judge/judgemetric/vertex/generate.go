package vertex

import (
	"cmp"
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
// (metrics.md §7.2; a ```json fence is accepted): the questions as
// cleanTexts leaves them, duplicates dropped, at most maxRubrics.
func ParseQuestions(answer string) ([]string, error) {
	var a struct {
		Questions *[]string `json:"questions"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	return cleanTexts(a.Questions, "questions", maxRubrics, true)
}

// cleanTexts cleans the list of texts (rubrics or claims) of an answer:
// each trimmed and cut to maxRubricLen, empty ones dropped and, with
// dedupe, repeats too (ignoring case and whitespace; a lone bullet counts
// as empty); at most max kept. A missing list or none left is an
// invalid_response error, never an empty set.
func cleanTexts(texts *[]string, what string, max int, dedupe bool) ([]string, error) {
	var out []string
	seen := make(map[string]bool)
	for _, t := range *cmp.Or(texts, &[]string{}) {
		t = capText(strings.TrimSpace(t), maxRubricLen)
		k := normalize(t)
		if t == "" || dedupe && (k == "" || seen[k]) {
			continue
		}
		seen[k] = true
		out = append(out, t)
		if len(out) == max {
			break
		}
	}
	if len(out) == 0 {
		return nil, judgemetric.Unparseable("answer has no %s", what)
	}
	return out, nil
}

// questionsSchema is the structured-output schema of a generation answer.
func questionsSchema() *judge.Schema {
	return judgemetric.ObjectSchema("rubric_questions", "questions", judgemetric.Array(judgemetric.Type("string")))
}
