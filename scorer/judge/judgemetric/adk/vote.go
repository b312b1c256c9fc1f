package adk

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
