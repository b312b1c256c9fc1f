package toolmatch

import "sync"

// argKeys gives the keys of argument texts under one equality, each
// text's computed once. It is safe for concurrent use.
type argKeys struct {
	key  func(args string) string // nil compares names only
	mu   sync.Mutex
	done map[string]string // keys by argument text
}

func newArgKeys(key func(args string) string) *argKeys {
	return &argKeys{key: key, done: make(map[string]string)}
}

// same reports whether x and y are the same call: equal names and either
// identical argument texts or equal argument keys. Arguments are decoded
// only when texts differ.
func (k *argKeys) same(x, y *Call) bool {
	switch {
	case x.Name != y.Name:
		return false
	case k.key == nil || x.Args == y.Args:
		return true
	}
	return k.of(x.Args) == k.of(y.Args)
}

// of returns the key of args.
func (k *argKeys) of(args string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	key, ok := k.done[args]
	if !ok {
		key = k.key(args)
		k.done[args] = key
	}
	return key
}

// Comparison compares predicted tool calls with reference calls under
// one Equality. When matching, each reference call matches at most one
// predicted call and each predicted call at most one reference call.
type Comparison struct {
	pred, ref []Call
	keys      *argKeys
}

// Compare returns the comparison of pred with ref under eq, the
// arguments decoded by dec.
func Compare(pred, ref []Call, eq Equality, dec Decoder) *Comparison {
	var key func(string) string
	if eq != NameOnly {
		key = func(args string) string { return argsKey(args, eq, dec) }
	}
	return &Comparison{pred: pred, ref: ref, keys: newArgKeys(key)}
}

// equal reports whether pred[i] and ref[j] are the same call.
func (c *Comparison) equal(i, j int) bool { return c.keys.same(&c.pred[i], &c.ref[j]) }

// ExactMatch reports whether the lists have the same length and match
// pairwise in order. Two empty lists match.
func (c *Comparison) ExactMatch() bool {
	if len(c.pred) != len(c.ref) {
		return false
	}
	for i := range c.pred {
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
	for i := range calls {
		if calls[i].Name == name {
			return true
		}
	}
	return false
}
