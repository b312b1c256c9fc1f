package scorer

import "sync"

// derived holds what several metrics compute from the same fields of one
// instance (the tokens of a text, the key of a tool call's arguments), so
// that one evaluation computes each once. Values are keyed by value: a
// comparable key that names the derivation and its inputs.
type derived struct {
	mu   sync.Mutex
	vals map[any]any
}

// Derive returns the value fn computes for key, computing it on the first
// call for this instance and key and returning the same value afterwards.
// Metrics use it for values derived from the instance's fields alone;
// the key must name everything the value depends on (for example the
// text and the tokenizer's options), and callers must not modify the
// value. It is safe for concurrent use; two concurrent first calls may
// both run fn, and the first value stored wins. The key's type is a type
// parameter so that looking a value up does not allocate.
func Derive[K comparable, V any](in *Instance, key K, fn func() V) V {
	d := &in.derived
	d.mu.Lock()
	if v, ok := d.vals[key]; ok {
		d.mu.Unlock()
		return v.(V)
	}
	d.mu.Unlock()
	v := fn()
	d.mu.Lock()
	defer d.mu.Unlock()
	if old, ok := d.vals[key]; ok {
		return old.(V)
	}
	if d.vals == nil {
		d.vals = make(map[any]any)
	}
	d.vals[key] = v
	return v
}
