package adk

import (
	"regexp"
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
	props := captures(propertyLine, answer)
	rats := captures(rationaleLine, answer)
	verds := captures(verdictLine, answer)
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

// The markers of a rubric answer, each capturing the rest of its line.
var (
	propertyLine  = regexp.MustCompile(`Property: (.*)`)
	rationaleLine = regexp.MustCompile(`Rationale: (.*)`)
	verdictLine   = regexp.MustCompile(`Verdict: (.*)`)
)

// captures returns the first group of every non-overlapping match of re
// in s, as Python's re.findall does for a pattern with one group.
func captures(re *regexp.Regexp, s string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
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

// tally counts the verdicts one rubric (or one sampled invocation)
// received over a set of samples.
type tally struct {
	yes, no, none int
}

func (t *tally) add(v verdict) {
	switch v {
	case verdictYes:
		t.yes++
	case verdictNo:
		t.no++
	default:
		t.none++
	}
}

// majority is ADK's MajorityVotePerInvocationResultsAggregator for one
// rubric: more yes than no is yes (1), otherwise (ties included) no (0);
// only none verdicts give ok false. share is the agreement share of the
// chosen side among the yes and no verdicts.
func (t tally) majority() (score, share float64, ok bool) {
	n := t.yes + t.no
	if n == 0 {
		return 0, 0, false
	}
	if t.yes > t.no {
		return 1, float64(t.yes) / float64(n), true
	}
	return 0, float64(t.no) / float64(n), true
}

// plus returns the counts of t and u together.
func (t tally) plus(u tally) tally { return tally{t.yes + u.yes, t.no + u.no, t.none + u.none} }
