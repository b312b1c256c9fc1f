package adk

import (
	"regexp"
	"strings"
)

// sentenceBlock is ADK's segmenter answer pattern.
var sentenceBlock = regexp.MustCompile(`(?s)<sentence>(.*?)</sentence>`)

// parseSentences returns the sentences of a segmenter answer: the text
// of every <sentence>…</sentence> block, in order, newlines included
// (Python re.findall(r"<sentence>(.*?)</sentence>", re.DOTALL)).
func parseSentences(answer string) []string { return captures(sentenceBlock, answer) }

// validation is one sentence block of a validator answer. An excerpt
// that reads "null" is empty.
type validation struct {
	Sentence             string `json:"sentence"`
	Label                string `json:"label"`
	Rationale            string `json:"rationale"`
	SupportingExcerpt    string `json:"supporting_excerpt,omitempty"`
	ContradictingExcerpt string `json:"contradicting_excerpt,omitempty"`
}

// validatorKeys are the field openers of a validator block, in order.
var validatorKeys = [...]string{"sentence:", "\nlabel:", "\nrationale:", "\nsupporting_excerpt:", "\ncontradicting_excerpt:"}

// parseValidations parses a validator answer as ADK does with
//
//	sentence:(.*?)\nlabel:(.*?)\nrationale:(.*?)\nsupporting_excerpt:(.*?)
//	\ncontradicting_excerpt:(.*?)(?=\nsentence:|\Z)
//
// under DOTALL and IGNORECASE over the stripped answer: each field runs
// lazily to the next opener, the last one to the next "\nsentence:" or
// the end. Values are stripped. Matching is ASCII case-insensitive.
func parseValidations(answer string) []validation {
	s := strings.TrimSpace(answer)
	var out []validation
	pos := 0
	for pos <= len(s) {
		start := indexFold(s, validatorKeys[0], pos)
		if start < 0 {
			return out
		}
		var vals [5]string
		at := start + len(validatorKeys[0])
		for k := 1; k < len(validatorKeys); k++ {
			j := indexFold(s, validatorKeys[k], at)
			if j < 0 {
				// a later "sentence:" cannot complete either: fewer openers follow it
				return out
			}
			vals[k-1] = s[at:j]
			at = j + len(validatorKeys[k])
		}
		end := indexFold(s, "\nsentence:", at)
		if end < 0 {
			end = len(s)
		}
		vals[4] = s[at:end]
		out = append(out, validation{
			Sentence:             strings.TrimSpace(vals[0]),
			Label:                strings.TrimSpace(vals[1]),
			Rationale:            strings.TrimSpace(vals[2]),
			SupportingExcerpt:    excerpt(vals[3]),
			ContradictingExcerpt: excerpt(vals[4]),
		})
		pos = end // > start: the loop advances
	}
	return out
}

// excerpt strips v and maps "null" (any case) to none.
func excerpt(v string) string {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "null") {
		return ""
	}
	return v
}

// indexFold returns the index of the first ASCII case-insensitive match
// of sub (which is ASCII) in s at or after from, or -1.
func indexFold(s, sub string, from int) int {
	n := len(sub)
	for i := from; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return i
		}
	}
	return -1
}

// Label values of the validator and their scores.
var labelScores = map[string]float64{
	"supported":      1,
	"not_applicable": 1,
	"unsupported":    0,
	"contradictory":  0,
	"disputed":       0,
}

// stepScore is the mean of the label scores of vs (labels stripped and
// lower-cased; unknown labels ignored) and the number of labels counted;
// ok is false when no label was valid.
func stepScore(vs []validation) (score float64, n int, ok bool) {
	sum := 0.0
	for _, v := range vs {
		sc, known := labelScores[strings.ToLower(strings.TrimSpace(v.Label))]
		if !known {
			continue
		}
		sum += sc
		n++
	}
	if n == 0 {
		return 0, 0, false
	}
	return sum / float64(n), n, true
}
