package toolmatch

import (
	"fmt"
	"strconv"
	"strings"
)

// ArgComparison is how Ragas ToolCallAccuracy compares one argument
// value's str() in the prediction with the reference's.
type ArgComparison uint8

// Argument comparisons.
const (
	// ArgExact is Ragas' default ExactMatch: 1 when the str() texts are
	// equal, else 0.
	ArgExact ArgComparison = iota
	// ArgLevenshtein is Ragas' NonLLMStringSimilarity with its default
	// distance: 1 - Levenshtein distance / the longer length, over code
	// points (two empty texts score 1).
	ArgLevenshtein
)

// String returns the parameter spelling: "exact" or "levenshtein".
func (c ArgComparison) String() string {
	if c == ArgLevenshtein {
		return "levenshtein"
	}
	return "exact"
}

// ParseArgComparison reads "exact" or "levenshtein" (case-insensitive).
func ParseArgComparison(s string) (ArgComparison, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "exact":
		return ArgExact, nil
	case "levenshtein":
		return ArgLevenshtein, nil
	}
	return 0, fmt.Errorf("unknown argument comparison %q (want exact or levenshtein)", s)
}

func (c ArgComparison) score(pred, ref string) float64 {
	if c == ArgLevenshtein {
		return levenshteinSimilarity(pred, ref)
	}
	if pred == ref {
		return 1
	}
	return 0
}

// ragasArgs is one call's arguments as Ragas sees its args dict.
type ragasArgs struct {
	members []Member
	raw     string // the text when it is not a JSON object
	object  bool
	strs    []string // PyStr of each member's value (built by buildRagas)
	byKey   []int    // member positions in the order of their keys (ditto)
}

// ToolCallAccuracy is Ragas ToolCallAccuracy over the predicted and
// reference calls.
//
//   - Both empty → 1; predicted empty → 0; reference empty → 0.
//   - Unless strictOrder, both lists are first sorted (stably) by the key
//     (name, k1, str(v1), k2, str(v2), …) with the arguments in key order.
//   - aligned = the name sequences are equal (strictOrder) or equal once
//     sorted; otherwise the score is 0, so any length difference gives 0.
//   - Each position-aligned pair with equal names scores its arguments:
//     both empty → 1; reference empty → 0; else Σ over reference keys
//     present in the prediction of cmp(str(pred[k]), str(ref[k])) divided
//     by the number of reference keys (extra predicted keys ignored).
//   - Score = Σ pair scores / len(ref) × aligned (× the coverage
//     len(pred)/len(ref) when the prediction is shorter, which alignment
//     already rules out).
//
// str() is Python's (see PyStr): 1 and 1.0 differ, True equals "True",
// nested dicts compare by their repr in document order. Arguments that
// are not a JSON object (Ragas cannot hold them) score 1 against the
// identical text and 0 otherwise.
func ToolCallAccuracy(pred, ref []Call, strictOrder bool, cmp ArgComparison) float64 {
	return PreparedToolCallAccuracy(Prepare(pred), Prepare(ref), strictOrder, cmp)
}

// PreparedToolCallAccuracy is ToolCallAccuracy of prepared calls.
func PreparedToolCallAccuracy(pp, rp *Prepared, strictOrder bool, cmp ArgComparison) float64 {
	pred, ref := pp.Calls, rp.Calls
	switch {
	case len(pred) == 0 && len(ref) == 0:
		return 1
	case len(pred) == 0, len(ref) == 0:
		return 0
	}
	if len(pred) != len(ref) {
		return 0
	}
	// The name sequences, sorted when not strictOrder: along the sorted
	// order of the calls, whose keys start with the name, names are
	// sorted. Under strictOrder they are compared before any argument is
	// read.
	if strictOrder {
		for i := range pred {
			if pred[i].Name != ref[i].Name {
				return 0
			}
		}
	}
	pd, rd := pp.ragasData(), rp.ragasData()
	po, ro := identityOrder, identityOrder
	if !strictOrder {
		ps, rs := pd.sorted(pred), rd.sorted(ref)
		po = func(i int) int { return ps[i] }
		ro = func(i int) int { return rs[i] }
		for i := range pred {
			if pred[po(i)].Name != ref[ro(i)].Name {
				return 0
			}
		}
	}
	sum := 0.0
	for i := range ref {
		sum += ragasArgScore(&pd.args[po(i)], &rd.args[ro(i)], cmp)
	}
	return sum / float64(len(ref))
}

// identityOrder is the order of calls as given.
func identityOrder(i int) int { return i }

// ragasArgScore is Ragas' _get_arg_score.
func ragasArgScore(p, r *ragasArgs, cmp ArgComparison) float64 {
	if !p.object || !r.object {
		if p.raw == r.raw {
			return 1
		}
		return 0
	}
	if len(r.members) == 0 {
		if len(p.members) == 0 {
			return 1
		}
		return 0
	}
	sum := 0.0
	for i := range r.members {
		for j := range p.members {
			if sameKey(p.members[j].Key, r.members[i].Key) {
				sum += cmp.score(p.strs[j], r.strs[i])
				break
			}
		}
	}
	return sum / float64(len(r.members))
}

// ToolCallF1 is Ragas ToolCallF1: the predicted and reference calls become
// sets of (name, arguments) under Python equality (PythonEqual, with empty
// arguments read as {}), so duplicates collapse and 1 == 1.0 == True;
// tp = |A∩E|, fp = |A−E|, fn = |E−A|; precision, recall and F1 are 0 when
// their denominator is 0 (so two empty lists give 0); F1 is rounded to 4
// decimals as Python's round() does. Where Ragas raises TypeError on an
// unhashable (list or dict) argument value, these compare by value.
func ToolCallF1(pred, ref []Call) (f1, precision, recall float64) {
	return PreparedToolCallF1(Prepare(pred), Prepare(ref))
}

// PreparedToolCallF1 is ToolCallF1 of prepared calls.
func PreparedToolCallF1(pred, ref *Prepared) (f1, precision, recall float64) {
	actual, expected := pred.f1Keys(), ref.f1Keys()
	na, ne, tp := setSizes(actual, expected)
	fp := na - tp
	fn := ne - tp
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	if precision+recall > 0 {
		f1 = PyRound(2*precision*recall/(precision+recall), 4)
	}
	return f1, precision, recall
}

// setSizes returns the sizes of the sets of keys a and e and of their
// intersection.
func setSizes(a, e []string) (na, ne, both int) {
	if len(a) > smallMatch || len(e) > smallMatch {
		as, es := keySet(a), keySet(e)
		for k := range as {
			if _, ok := es[k]; ok {
				both++
			}
		}
		return len(as), len(es), both
	}
	var afp, efp [smallMatch]uint64
	for i := range a {
		afp[i] = fingerprint(a[i])
	}
	for i := range e {
		efp[i] = fingerprint(e[i])
	}
	for i := range a {
		if !firstOf(a, &afp, i) {
			continue
		}
		na++
		for j := range e {
			if efp[j] == afp[i] && e[j] == a[i] {
				both++
				break
			}
		}
	}
	for i := range e {
		if firstOf(e, &efp, i) {
			ne++
		}
	}
	return na, ne, both
}

// firstOf reports whether keys[i], whose fingerprints are fps, is the
// first key of its value.
func firstOf(keys []string, fps *[smallMatch]uint64, i int) bool {
	for j := range i {
		if fps[j] == fps[i] && keys[j] == keys[i] {
			return false
		}
	}
	return true
}

func keySet(keys []string) map[string]struct{} {
	set := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		set[k] = struct{}{}
	}
	return set
}

// PyRound is Python's round(x, digits) for a float: correctly rounded to
// the decimal digits, ties to even on the exact binary value.
func PyRound(x float64, digits int) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', digits, 64), 64)
	if err != nil {
		return x
	}
	return r
}

// levenshteinSimilarity is 1 - distance/max(len) over code points.
func levenshteinSimilarity(a, b string) float64 {
	ra, rb := []rune(a), []rune(b)
	n := max(len(ra), len(rb))
	if n == 0 {
		return 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(rb)])/float64(n)
}
