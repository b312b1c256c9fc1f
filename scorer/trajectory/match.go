package trajectory

// The matching functions compare call keys (see Keys): two calls match
// when their keys are equal. Each reference call matches at most one
// predicted call and each predicted call at most one reference call.

// ExactMatch reports whether pred and ref have the same length and match
// pairwise in order. Two empty lists match.
func ExactMatch(pred, ref []string) bool {
	if len(pred) != len(ref) {
		return false
	}
	for i := range pred {
		if pred[i] != ref[i] {
			return false
		}
	}
	return true
}

// InOrderMatch reports whether ref is a subsequence of pred: every
// reference call appears in pred in the same order, extra predicted calls
// allowed. It walks pred once and advances through ref on each match (the
// greedy walk finds a subsequence whenever one exists). An empty ref
// matches.
func InOrderMatch(pred, ref []string) bool {
	j := 0
	for i := 0; i < len(pred) && j < len(ref); i++ {
		if pred[i] == ref[j] {
			j++
		}
	}
	return j == len(ref)
}

// AnyOrderMatch reports whether ref is contained in pred as a multiset:
// each reference call consumes one equal predicted call, in any order;
// extra predicted calls allowed. An empty ref matches.
func AnyOrderMatch(pred, ref []string) bool {
	return Matched(pred, ref) == len(ref)
}

// Matched returns how many reference calls find a predicted partner when
// each predicted call can be used once: the size of the multiset
// intersection.
func Matched(pred, ref []string) int {
	if len(pred) == 0 || len(ref) == 0 {
		return 0
	}
	var small [smallMatch]bool
	used := small[:0]
	if len(pred) <= smallMatch {
		used = small[:len(pred)]
	} else {
		used = make([]bool, len(pred))
	}
	n := 0
	for _, r := range ref {
		for i, p := range pred {
			if !used[i] && p == r {
				used[i] = true
				n++
				break
			}
		}
	}
	return n
}

// smallMatch is the predicted call count up to which Matched keeps its
// work space on the stack.
const smallMatch = 64

// Precision is Matched / len(pred). With no predicted calls it is 1 when
// ref is empty too and 0 otherwise (doing nothing is not precise when
// something was expected).
func Precision(pred, ref []string) float64 {
	if len(pred) == 0 {
		if len(ref) == 0 {
			return 1
		}
		return 0
	}
	return float64(Matched(pred, ref)) / float64(len(pred))
}

// Recall is Matched / len(ref). With no reference calls it is 1
// (vacuously everything expected was done), so Recall == 1 exactly when
// AnyOrderMatch holds.
func Recall(pred, ref []string) float64 {
	if len(ref) == 0 {
		return 1
	}
	return float64(Matched(pred, ref)) / float64(len(ref))
}

// UsesTool reports whether some call is named name (the count and the
// arguments do not matter).
func UsesTool(calls []Call, name string) bool {
	for i := range calls {
		if calls[i].Name == name {
			return true
		}
	}
	return false
}
