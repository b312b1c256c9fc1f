package toolmatch

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalsidecar/evalsidecar/internal/editdist"
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
	return boolScore(pred == ref)
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
// identical text and 0 otherwise. dec decodes the arguments.
func ToolCallAccuracy(pred, ref []Call, strictOrder bool, cmp ArgComparison, dec Decoder) float64 {
	switch {
	case len(pred) == 0 && len(ref) == 0:
		return 1
	case len(pred) != len(ref), len(pred) == 0:
		return 0
	}
	if !strictOrder {
		pred, ref = ragasSorted(pred, dec), ragasSorted(ref, dec)
	}
	if !slices.EqualFunc(pred, ref, func(p, r Call) bool { return p.Name == r.Name }) {
		return 0
	}
	sum := 0.0
	for i := range ref {
		sum += ragasArgScore(pred[i].Arguments, ref[i].Arguments, cmp, dec)
	}
	return sum / float64(len(ref))
}

// ragasArgs is one call's arguments as Ragas holds its args dict.
type ragasArgs struct {
	dict   Value  // the arguments when they are a JSON object
	isDict bool   // empty text is an empty dict
	text   string // the arguments trimmed of blanks
}

func newRagasArgs(args string, dec Decoder) ragasArgs {
	a := ragasArgs{dict: Value{Kind: Object}, isDict: true, text: strings.TrimSpace(args)}
	if a.text != "" {
		v, err := dec(a.text)
		a.dict, a.isDict = v, err == nil && v.Kind == Object
	}
	return a
}

// ragasArgScore is Ragas' _get_arg_score of two calls' arguments.
// Identical texts score 1, as every reference value then meets its own
// str() in the prediction.
func ragasArgScore(pred, ref string, cmp ArgComparison, dec Decoder) float64 {
	if pred == ref {
		return 1
	}
	p, r := newRagasArgs(pred, dec), newRagasArgs(ref, dec)
	if !p.isDict || !r.isDict {
		return boolScore(p.text == r.text)
	}
	if len(r.dict.Members) == 0 {
		return boolScore(len(p.dict.Members) == 0)
	}
	sum := 0.0
	for i := range r.dict.Members {
		rm := &r.dict.Members[i]
		if pv := p.dict.member(rm.Key); pv != nil {
			sum += cmp.score(PyStr(pv), PyStr(&rm.Value))
		}
	}
	return sum / float64(len(r.dict.Members))
}

// ragasSorted returns calls stably sorted by Ragas' sort key: the tuple
// (name, k1, str(v1), k2, str(v2), …) with the arguments in key order, or
// (name, text) for arguments that are not an object, compared as Python
// compares tuples of str: element by element, str by code point (the
// byte order of their UTF-8), a tuple before the longer ones it begins.
func ragasSorted(calls []Call, dec Decoder) []Call {
	type sortable struct {
		call Call
		key  []string
	}
	s := make([]sortable, len(calls))
	for i, c := range calls {
		s[i] = sortable{call: c, key: []string{c.Name}}
		a := newRagasArgs(c.Arguments, dec)
		if !a.isDict {
			s[i].key = append(s[i].key, a.text)
			continue
		}
		ms := slices.Clone(a.dict.Members)
		slices.SortFunc(ms, func(x, y Member) int { return strings.Compare(x.Key, y.Key) })
		for j := range ms {
			s[i].key = append(s[i].key, ms[j].Key, PyStr(&ms[j].Value))
		}
	}
	slices.SortStableFunc(s, func(x, y sortable) int { return slices.Compare(x.key, y.key) })
	out := make([]Call, len(s))
	for i := range s {
		out[i] = s[i].call
	}
	return out
}

// ToolCallF1 is Ragas ToolCallF1: the predicted and reference calls become
// sets of (name, arguments) under Python equality (PythonEqual, with empty
// arguments read as {}), so duplicates collapse and 1 == 1.0 == True;
// tp = |A∩E|, fp = |A−E|, fn = |E−A|; precision, recall and F1 are 0 when
// their denominator is 0 (so two empty lists give 0); F1 is rounded to 4
// decimals as Python's round() does. Where Ragas raises TypeError on an
// unhashable (list or dict) argument value, these compare by value. key
// gives the PythonEqual keys of the arguments.
func ToolCallF1(pred, ref []Call, key ArgsKey) (f1, precision, recall float64) {
	ids := numberCalls([][]Call{pred, ref}, func(args string) string {
		if strings.TrimSpace(args) == "" {
			return emptyObjectKey
		}
		return key(args)
	})
	// the sets of calls, by number: numbers are below the count of calls
	in := make([]struct{ actual, expected bool }, len(ids[0])+len(ids[1]))
	for _, id := range ids[0] {
		in[id].actual = true
	}
	for _, id := range ids[1] {
		in[id].expected = true
	}
	tp, fp, fn := 0, 0, 0
	for _, c := range in {
		switch {
		case c.actual && c.expected:
			tp++
		case c.actual:
			fp++
		case c.expected:
			fn++
		}
	}
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

// boolScore is 1 for true and 0 for false.
func boolScore(b bool) float64 {
	if b {
		return 1
	}
	return 0
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
	n := max(utf8.RuneCountInString(a), utf8.RuneCountInString(b))
	if n == 0 {
		return 1
	}
	return 1 - float64(editdist.Distance(a, b))/float64(n)
}
