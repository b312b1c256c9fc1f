package adk

import (
	"strings"
)

// rubricAnswer is one property block of a rubric judge answer.
type rubricAnswer struct {
	property  string
	rationale string
	verdict   verdict
}

// verdict is a rubric verdict: yes, no, or none (neither found).
type verdict int8

const (
	verdictNone verdict = iota
	verdictYes
	verdictNo
)

// parseRubricAnswer parses a rubric judge answer as ADK's
// DefaultAutoRaterResponseParser does: every "Property: ", "Rationale: "
// and "Verdict: " occurrence captures the rest of its line (Python
// re.findall of (?<=Property: )(.*) and so on), and the three lists are
// zipped positionally, stopping at the shortest. A verdict that contains
// "yes" (lower-cased) is yes, else one that contains "no" is no (so "Not
// applicable" is no), else none. Property and rationale are stripped.
func parseRubricAnswer(answer string) []rubricAnswer {
	props := afterMarker(answer, "Property: ")
	rats := afterMarker(answer, "Rationale: ")
	verds := afterMarker(answer, "Verdict: ")
	n := min(len(props), len(rats), len(verds))
	out := make([]rubricAnswer, n)
	for i := range n {
		out[i] = rubricAnswer{
			property:  strings.TrimSpace(props[i]),
			rationale: strings.TrimSpace(rats[i]),
			verdict:   parseVerdict(verds[i]),
		}
	}
	return out
}

// afterMarker returns, for every non-overlapping occurrence of marker, the
// text after it up to the end of its line ("\n" excluded).
func afterMarker(s, marker string) []string {
	var out []string
	for {
		i := strings.Index(s, marker)
		if i < 0 {
			return out
		}
		rest := s[i+len(marker):]
		j := strings.IndexByte(rest, '\n')
		if j < 0 {
			return append(out, rest)
		}
		out = append(out, rest[:j])
		s = rest[j:]
	}
}

func parseVerdict(v string) verdict {
	l := strings.ToLower(v)
	switch {
	case strings.Contains(l, "yes"):
		return verdictYes
	case strings.Contains(l, "no"):
		return verdictNo
	}
	return verdictNone
}

// normalizeRubric is the key a property is matched to a rubric by:
// lower-cased and stripped.
func normalizeRubric(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
