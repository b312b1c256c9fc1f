package scorer

import (
	"sync"
	"unsafe"

	"github.com/evalsidecar/evalsidecar/scorer/rouge"
)

// instanceMemo keeps what the metrics of one Instance derive from the
// same inputs (ROUGE tokens of a text pair), so that each is computed
// once however many metrics use it. Entries are found by the identity of
// their inputs: a text by its bytes' address and length
// (so that a long text is not hashed on every lookup); a field that is
// set to another list or text therefore gets a new entry, while changing
// the elements of a list in place after scoring started is not seen. An
// Instance must not be copied once scored. It is safe for concurrent use.
type instanceMemo struct {
	mu     sync.Mutex
	tokens memoList[tokensID, *rouge.Tokens]
}

// memoList is a few memoized values found by their keys. An Instance has
// a handful of entries of each kind, so a scan of the list is cheaper
// than a map, whose hashing and growth would cost more than the lookups.
type memoList[K comparable, V any] []memoEntry[K, V]

// memoEntry is one value of a memoList and its key.
type memoEntry[K comparable, V any] struct {
	key K
	val V
}

// find returns the value of key.
func (l memoList[K, V]) find(key K) (V, bool) {
	for i := range l {
		if l[i].key == key {
			return l[i].val, true
		}
	}
	var zero V
	return zero, false
}

// add appends the value of key, which find does not know.
func (l *memoList[K, V]) add(key K, val V) {
	if *l == nil {
		*l = make(memoList[K, V], 0, 2)
	}
	*l = append(*l, memoEntry[K, V]{key, val})
}

// textID identifies a string by its bytes' address and its length. Equal
// texts held in different strings get different ids, which costs a
// second computation, never a wrong result.
type textID struct {
	data *byte
	n    int
}

// idOf returns the textID of s.
func idOf(s string) textID { return textID{data: unsafe.StringData(s), n: len(s)} }

// tokensID identifies a ROUGE tokenization: the texts and the stemming.
type tokensID struct {
	target, prediction textID
	stem               bool
}

// rougeTokens returns the tokens of target and prediction for s, built
// on first use: the unstemmed tokens are shared by every scorer of the
// pair, and stemmed ones derived from them. A target that is the
// instance's prepared reference is not tokenized again: only the
// prediction is, against it.
func (in *Instance) rougeTokens(target, prediction string, s *rouge.Scorer) *rouge.Tokens {
	base := in.memoTokens(tokensID{target: idOf(target), prediction: idOf(prediction)}, func() *rouge.Tokens {
		if t := in.PreparedReference.rougeTarget(target); t != nil {
			return s.TargetTokens(t, prediction)
		}
		return s.UnstemmedTokens(target, prediction)
	})
	if !s.Stems() {
		return base
	}
	return in.memoTokens(tokensID{target: idOf(target), prediction: idOf(prediction), stem: true}, func() *rouge.Tokens {
		return s.StemTokens(base)
	})
}

// memoTokens returns the tokens memoized under id, built by build on
// first use.
func (in *Instance) memoTokens(id tokensID, build func() *rouge.Tokens) *rouge.Tokens {
	m := &in.memo
	m.mu.Lock()
	defer m.mu.Unlock()
	if t, ok := m.tokens.find(id); ok {
		return t
	}
	t := build()
	m.tokens.add(id, t)
	return t
}

// rougeScore is s.Score(target, prediction), from tokens shared with the
// instance's other ROUGE scorers where the type allows.
func (in *Instance) rougeScore(s *rouge.Scorer, target, prediction string) rouge.Score {
	if !s.UsesTokens() {
		return s.Score(target, prediction)
	}
	return s.ScoreTokens(in.rougeTokens(target, prediction, s))
}
