package toolmatch

import "slices"

// numberCalls numbers the calls of lists: two calls, of any of the
// lists, get the same number exactly when they are the same call, with
// equal names and equal argument keys (nil key: names only). out[k][i]
// is the number of lists[k][i].
func numberCalls(lists [][]Call, key ArgsKey) (out [][]int32) {
	total, longest := 0, 0
	for _, calls := range lists {
		total += len(calls)
		longest = max(longest, len(calls))
	}
	// call numbers by name and argument key, sized for lists that
	// mostly hold the same calls
	ids := make(map[[2]string]int32, longest)
	flat := make([]int32, total) // the numbers of every list, allocated once
	out = make([][]int32, len(lists))
	for k, calls := range lists {
		out[k], flat = flat[:len(calls):len(calls)], flat[len(calls):]
		for i := range calls {
			var ak string
			if key != nil {
				ak = key(calls[i].Arguments)
			}
			nk := [2]string{calls[i].Name, ak}
			id, ok := ids[nk]
			if !ok {
				id = int32(len(ids))
				ids[nk] = id
			}
			out[k][i] = id
		}
	}
	return out
}

// Comparison compares predicted tool calls with reference calls under
// one Equality. When matching, each reference call matches at most one
// predicted call and each predicted call at most one reference call. It
// is immutable and safe for concurrent use.
type Comparison struct {
	pred, ref []int32 // the calls' numbers (numberCalls)
}

// Compare returns the comparison of pred with ref, the arguments compared
// by their keys.
func Compare(pred, ref []Call, key ArgsKey) *Comparison {
	ids := numberCalls([][]Call{pred, ref}, key)
	return &Comparison{pred: ids[0], ref: ids[1]}
}

// equal reports whether pred[i] and ref[j] are the same call.
func (c *Comparison) equal(i, j int) bool { return c.pred[i] == c.ref[j] }

// ExactMatch reports whether the lists have the same length and match
// pairwise in order. Two empty lists match.
func (c *Comparison) ExactMatch() bool { return slices.Equal(c.pred, c.ref) }

// InOrderMatch reports whether the reference is a subsequence of the
// prediction: every reference call appears in it in the same order,
// extra predicted calls allowed. It walks the prediction once and
// advances through the reference on each match (the greedy walk finds a
// subsequence whenever one exists). An empty reference matches.
func (c *Comparison) InOrderMatch() bool {
	j := 0
	for i := 0; i < len(c.pred) && j < len(c.ref); i++ {
		if c.equal(i, j) {
			j++
		}
	}
	return j == len(c.ref)
}

// AnyOrderMatch reports whether the reference is contained in the
// prediction as a multiset: each reference call consumes one equal
// predicted call, in any order; extra predicted calls allowed. An empty
// reference matches.
func (c *Comparison) AnyOrderMatch() bool {
	return c.Matched() == len(c.ref)
}

// Matched returns how many reference calls find a predicted partner when
// each predicted call can be used once: the size of the multiset
// intersection.
func (c *Comparison) Matched() int {
	used := make([]bool, len(c.pred))
	n := 0
	for j := range c.ref {
		for i := range c.pred {
			if !used[i] && c.equal(i, j) {
				used[i] = true
				n++
				break
			}
		}
	}
	return n
}

// Precision is Matched / the predicted count. With no predicted calls it
// is 1 when the reference is empty too and 0 otherwise (doing nothing is
// not precise when something was expected).
func (c *Comparison) Precision() float64 {
	if len(c.pred) == 0 {
		if len(c.ref) == 0 {
			return 1
		}
		return 0
	}
	return float64(c.Matched()) / float64(len(c.pred))
}

// Recall is Matched / the reference count. With no reference calls it is
// 1 (vacuously everything expected was done), so Recall is 1 exactly when
// AnyOrderMatch holds.
func (c *Comparison) Recall() float64 {
	if len(c.ref) == 0 {
		return 1
	}
	return float64(c.Matched()) / float64(len(c.ref))
}

// UsesTool reports whether some call is named name (the count and the
// arguments do not matter).
func UsesTool(calls []Call, name string) bool {
	return slices.ContainsFunc(calls, func(c Call) bool { return c.Name == name })
}
