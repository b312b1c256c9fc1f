package vertex

import (
	"regexp"
	"strings"
)

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
		var yes bool
		switch {
		case strings.Contains(verdict, "yes"):
			yes = true
		case strings.Contains(verdict, "no"):
			yes = false
		default:
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
