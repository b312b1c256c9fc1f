package vertex

import (
	"regexp"
	"strings"

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
		Questions []string `json:"questions"`
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
func cleanTexts(texts []string, what string, max int, dedupe bool) ([]string, error) {
	var out []string
	seen := make(map[string]bool)
	for _, t := range texts {
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

// questionBlock matches one <question> ... </question> block.
var questionBlock = regexp.MustCompile(`(?s)<question>(.*?)</question>`)

// verdictLine matches the first "Verdict:" line of a block.
var verdictLine = regexp.MustCompile(`Verdict:(.*)`)

// ParseQuestionBlocks parses a rubric critique written in the text format
// of the Vertex preview SDK (metrics.md §7.2): "<question>\n" is prepended
// when the answer does not start with it (the critique prompt ends with an
// opening tag); each <question>...</question> block gives one verdict.
// The question is the text after the block's last "Question:" and before
// "Verdict:"; the verdict is the rest of the first "Verdict:" line: YES
// when it contains "yes", else NO when it contains "no" (case-insensitive).
// Blocks with neither, with no "Verdict:" or with an empty question are
// skipped.
func ParseQuestionBlocks(answer string) []QuestionVerdict {
	text := answer
	if !strings.HasPrefix(strings.TrimSpace(text), "<question>") {
		text = "<question>\n" + text
	}
	var out []QuestionVerdict
	for _, m := range questionBlock.FindAllStringSubmatch(text, -1) {
		block := m[1]
		v := verdictLine.FindStringSubmatch(block)
		if v == nil {
			continue
		}
		q := block
		if i := strings.LastIndex(q, "Question:"); i >= 0 {
			q = q[i+len("Question:"):]
		}
		if i := strings.Index(q, "Verdict:"); i >= 0 {
			q = q[:i]
		}
		q = strings.TrimSpace(q)
		if q == "" {
			continue
		}
		verdict := strings.ToLower(v[1])
		yes := strings.Contains(verdict, "yes")
		if !yes && !strings.Contains(verdict, "no") {
			continue
		}
		out = append(out, QuestionVerdict{Question: q, Yes: yes, Reason: strings.TrimSpace(block)})
	}
	return out
}

// Consensus is the self-consistency outcome of one rubric over samples.
type Consensus struct {
	Question string
	// Sum is +1 per YES and -1 per NO over the samples.
	Sum int
	// Votes is the number of samples that judged the rubric.
	Votes int
	// Pass is Sum > 0 (a tie fails).
	Pass bool
	// Reason is the reason of the first vote agreeing with the outcome.
	Reason string
}

// SelfConsistency combines the verdicts of several samples as the Vertex
// preview SDK does (metrics.md §7.2): each rubric gets +1 per YES and -1
// per NO, and passes iff the sum is > 0. Rubrics are identified by their
// question text and kept in first-seen order. score = passed / parsed
// rubrics, or 0 when nothing was parsed.
func SelfConsistency(samples [][]QuestionVerdict) (consensus []Consensus, score float64) {
	index := make(map[string]int)
	for _, sample := range samples {
		for _, v := range sample {
			i, ok := index[v.Question]
			if !ok {
				i = len(consensus)
				index[v.Question] = i
				consensus = append(consensus, Consensus{Question: v.Question})
			}
			c := &consensus[i]
			c.Votes++
			if v.Yes {
				c.Sum++
			} else {
				c.Sum--
			}
		}
	}
	passed := 0
	for i := range consensus {
		c := &consensus[i]
		c.Pass = c.Sum > 0
		if c.Pass {
			passed++
		}
	}
	// Reasons: the first vote agreeing with each outcome.
	for _, sample := range samples {
		for _, v := range sample {
			c := &consensus[index[v.Question]]
			if c.Reason == "" && v.Yes == c.Pass {
				c.Reason = v.Reason
			}
		}
	}
	if len(consensus) == 0 {
		return nil, 0
	}
	return consensus, float64(passed) / float64(len(consensus))
}
