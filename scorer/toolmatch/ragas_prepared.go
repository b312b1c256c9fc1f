package toolmatch

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// ragasData is what Ragas' accuracy compares of a Prepared's calls.
type ragasData struct {
	args []ragasArgs // per call, with strs and byKey

	orderOnce sync.Once
	order     []int // the calls stably sorted by ragasCompare; see sorted
}

// ragasData returns p's Ragas data, built on first use.
func (p *Prepared) ragasData() *ragasData {
	p.ragasOnce.Do(p.buildRagas)
	return &p.ragas
}

// sorted returns the calls' order under Ragas' sort key (the order of
// accuracy without strict_order), built on first use.
func (d *ragasData) sorted(calls []Call) []int {
	d.orderOnce.Do(func() {
		n := len(calls)
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		less := func(x, y int) int { return ragasCompare(&calls[x], &calls[y], &d.args[x], &d.args[y]) }
		if n <= smallList {
			for i := 1; i < n; i++ {
				for j := i; j > 0 && less(order[j-1], order[j]) > 0; j-- {
					order[j-1], order[j] = order[j], order[j-1]
				}
			}
		} else {
			slices.SortStableFunc(order, less)
		}
		d.order = order
	})
	return d.order
}

// buildRagas builds p.ragas but its order. The str() texts that are not
// sub-strings of the input share one text.
func (p *Prepared) buildRagas() {
	n := len(p.Calls)
	args := make([]ragasArgs, n)
	total := 0
	for i := range args {
		args[i] = p.ragasArgs(i)
		total += len(args[i].members)
	}
	strs := make([]string, total)
	byKey := make([]int, total)
	// reprs are the str() texts built in text: their member's
	// position in strs and their end in text.
	type repr struct{ at, end int }
	var reprBuf [smallList]repr
	reprs := reprBuf[:0]
	var text []byte
	at := 0
	for i := range args {
		a := &args[i]
		m := len(a.members)
		a.strs = strs[at : at+m : at+m]
		a.byKey = byKey[at : at+m : at+m]
		for j := range a.members {
			v := &a.members[j].Value
			if s, ok := pyStrDirect(v); ok {
				a.strs[j] = s
				continue
			}
			if text == nil {
				// room for the reprs of containers and floats, a guess
				text = make([]byte, 0, 32*(total-at-j))
			}
			text = appendPyRepr(text, v)
			reprs = append(reprs, repr{at + j, len(text)})
		}
		sortByKey(a.members, a.byKey)
		at += m
	}
	if len(reprs) > 0 {
		all := freeze(text)
		start := 0
		for _, r := range reprs {
			strs[r.at] = all[start:r.end]
			start = r.end
		}
	}
	p.ragas.args = args
}

// sortByKey stores in o the positions of ms in the order of their keys.
func sortByKey(ms []Member, o []int) {
	if len(ms) <= smallObject {
		var ord [smallObject]uint8
		for i, k := range sortSmall(ms, &ord) {
			o[i] = int(k)
		}
		return
	}
	copy(o, sortLarge(ms))
}

// ragasCompare compares two calls by Ragas' sort key, the tuple (name,
// k1, str(v1), k2, str(v2), …) with the arguments in key order, or
// (name, text) for arguments that are not an object, as Python compares
// tuples of str: element by element, str by code point (the byte order
// of their UTF-8), a tuple before the longer ones it begins.
func ragasCompare(ca, cb *Call, a, b *ragasArgs) int {
	if c := strings.Compare(ca.Name, cb.Name); c != 0 {
		return c
	}
	la, lb := a.tupleLen(), b.tupleLen()
	for k := range min(la, lb) {
		if c := strings.Compare(a.elem(k), b.elem(k)); c != 0 {
			return c
		}
	}
	return cmp.Compare(la, lb)
}

// tupleLen is the length of a's part of the Ragas sort key.
func (a *ragasArgs) tupleLen() int {
	if !a.object {
		return 1
	}
	return 2 * len(a.members)
}

// elem is element k of a's part of the Ragas sort key.
func (a *ragasArgs) elem(k int) string {
	if !a.object {
		return a.raw
	}
	m := a.byKey[k/2]
	if k%2 == 0 {
		return a.members[m].Key
	}
	return a.strs[m]
}
