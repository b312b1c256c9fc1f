package toolmatch

import (
	"math/bits"

	"github.com/evalsidecar/evalsidecar/internal/intern"
	"github.com/evalsidecar/evalsidecar/internal/swar"
)

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
	if len(pred) > smallMatch {
		return matchedLarge(pred, ref)
	}
	var fps [smallMatch]uint64
	for i := range pred {
		fps[i] = fingerprint(pred[i])
	}
	var used uint64 // bit i: pred[i] is taken
	n := 0
	for _, r := range ref {
		fr := fingerprint(r)
		for i, p := range pred {
			if used&(1<<i) == 0 && fps[i] == fr && p == r {
				used |= 1 << i
				n++
				break
			}
		}
	}
	return n
}

// matchedLarge is Matched for more than smallMatch predicted calls.
func matchedLarge(pred, ref []string) int {
	used := make([]bool, len(pred))
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

// smallMatch is the call count up to which Matched and ToolCallF1 keep
// their work space on the stack.
const smallMatch = 64

// fingerprint returns a word that is equal for equal strings and, for
// the keys of calls that differ, most often different: it mixes the
// length with eight bytes from the middle and eight from the end, or
// with all the bytes of a short string. Comparing fingerprints first
// spares most comparisons of unequal keys of equal length.
func fingerprint(s string) uint64 {
	n := len(s)
	if n < 8 {
		x := uint64(n)
		for i := 0; i < n; i++ {
			x = x<<8 | uint64(s[i])
		}
		return x
	}
	return swar.Load64(s, (n-8)/2) ^ bits.RotateLeft64(swar.Load64(s, n-8), 31) ^ uint64(n)*intern.Golden
}

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
