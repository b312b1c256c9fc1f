package toolmatch

// keyedCalls is a list of tool calls with the keys of their arguments,
// each computed on first use.
type keyedCalls struct {
	list []Call
	// key returns the key of an argument text, never ""; nil compares
	// names only.
	key  func(args string) string
	keys []string // "" until computed
}

func newKeyedCalls(list []Call, key func(args string) string) *keyedCalls {
	return &keyedCalls{list: list, key: key, keys: make([]string, len(list))}
}

// argsKey returns the key of the arguments of call i.
func (c *keyedCalls) argsKey(i int) string {
	if c.keys[i] == "" {
		c.keys[i] = c.key(c.list[i].Args)
	}
	return c.keys[i]
}

// same reports whether call i of a and call j of b are the same call:
// equal names and either identical argument texts or equal argument
// keys. Arguments are decoded only when their texts differ.
func same(a *keyedCalls, i int, b *keyedCalls, j int) bool {
	x, y := &a.list[i], &b.list[j]
	switch {
	case x.Name != y.Name:
		return false
	case a.key == nil || x.Args == y.Args:
		return true
	}
	return a.argsKey(i) == b.argsKey(j)
}

// Comparison compares predicted tool calls with reference calls under
// one Equality. When matching, each reference call matches at most one
// predicted call and each predicted call at most one reference call.
type Comparison struct {
	pred, ref *keyedCalls
}

// Compare returns the comparison of pred with ref under eq.
func Compare(pred, ref []Call, eq Equality) *Comparison {
	var key func(string) string
	if eq != NameOnly {
		key = func(args string) string { return ArgsKey(args, eq) }
	}
	return &Comparison{pred: newKeyedCalls(pred, key), ref: newKeyedCalls(ref, key)}
}

// equal reports whether pred[i] and ref[j] are the same call.
func (c *Comparison) equal(i, j int) bool { return same(c.pred, i, c.ref, j) }

// ExactMatch reports whether the lists have the same length and match
// pairwise in order. Two empty lists match.
func (c *Comparison) ExactMatch() bool {
	if len(c.pred.list) != len(c.ref.list) {
		return false
	}
	for i := range c.pred.list {
		if !c.equal(i, i) {
			return false
		}
	}
	return true
}

// InOrderMatch reports whether the reference is a subsequence of the
// prediction: every reference call appears in it in the same order,
// extra predicted calls allowed. It walks the prediction once and
// advances through the reference on each match (the greedy walk finds a
// subsequence whenever one exists). An empty reference matches.
func (c *Comparison) InOrderMatch() bool {
	j := 0
	for i := 0; i < len(c.pred.list) && j < len(c.ref.list); i++ {
		if c.equal(i, j) {
			j++
		}
	}
	return j == len(c.ref.list)
}

// AnyOrderMatch reports whether the reference is contained in the
// prediction as a multiset: each reference call consumes one equal
// predicted call, in any order; extra predicted calls allowed. An empty
// reference matches.
func (c *Comparison) AnyOrderMatch() bool {
	return c.Matched() == len(c.ref.list)
}

// Matched returns how many reference calls find a predicted partner when
// each predicted call can be used once: the size of the multiset
// intersection.
func (c *Comparison) Matched() int {
	used := make([]bool, len(c.pred.list))
	n := 0
	for j := range c.ref.list {
		for i := range c.pred.list {
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
	if len(c.pred.list) == 0 {
		if len(c.ref.list) == 0 {
			return 1
		}
		return 0
	}
	return float64(c.Matched()) / float64(len(c.pred.list))
}

// Recall is Matched / the reference count. With no reference calls it is
// 1 (vacuously everything expected was done), so Recall is 1 exactly when
// AnyOrderMatch holds.
func (c *Comparison) Recall() float64 {
	if len(c.ref.list) == 0 {
		return 1
	}
	return float64(c.Matched()) / float64(len(c.ref.list))
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
