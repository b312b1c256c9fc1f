package toolmatch

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

// semanticEqual is a slow reference for exactArgsKey equality on values
// decoded by encoding/json with UseNumber: numbers are compared as exact
// rationals.
func semanticEqual(a, b any) (eq, ok bool) {
	switch x := a.(type) {
	case json.Number:
		y, isNum := b.(json.Number)
		if !isNum {
			return false, true
		}
		if hugeExponent(string(x)) || hugeExponent(string(y)) {
			return false, false // too costly for big.Rat; no verdict
		}
		rx, okx := new(big.Rat).SetString(string(x))
		ry, oky := new(big.Rat).SetString(string(y))
		if !okx || !oky {
			return false, false
		}
		return rx.Cmp(ry) == 0, true
	case []any:
		y, isArr := b.([]any)
		if !isArr || len(x) != len(y) {
			return false, true
		}
		for i := range x {
			if e, ok := semanticEqual(x[i], y[i]); !ok || !e {
				return e, ok
			}
		}
		return true, true
	case map[string]any:
		y, isObj := b.(map[string]any)
		if !isObj || len(x) != len(y) {
			return false, true
		}
		for k, v := range x {
			w, has := y[k]
			if !has {
				return false, true
			}
			if e, ok := semanticEqual(v, w); !ok || !e {
				return e, ok
			}
		}
		return true, true
	default:
		return a == b, true
	}
}

// hugeExponent reports a number whose exponent makes big.Rat slow.
func hugeExponent(s string) bool {
	i := strings.IndexAny(s, "eE")
	return i >= 0 && len(strings.TrimLeft(s[i+1:], "+-0")) > 3
}

// FuzzExactArgsKey checks the argument comparison of Repeated: never panics, reflexive, raw-equal texts are
// equal, for valid JSON it agrees with exact semantic equality, and
// re-encoding a value (keys sorted, escapes normalised, repeated keys
// dropped) keeps its key.
func FuzzExactArgsKey(f *testing.F) {
	seeds := [][2]string{
		{`{"a":1,"b":"x"}`, `{"b":"x","a":1}`},
		{`{"n":1}`, `{"n":1.0}`},
		{`{"n":100}`, `{"n":1e2}`},
		{`{"n":0}`, `{"n":-0.0}`},
		{`{"n":12345678901234567890}`, `{"n":12345678901234567891}`},
		{`[1,[2,{"k":null}]]`, `[1,[2,{"k":false}]]`},
		{`{x:1}`, `{x:1}`},
		{``, `{}`},
		{`{"a":1} x`, `{"a":1}`},
		{`{"a":"\u00e9"}`, `{"a":"é"}`},
		{`{"a":1,"a":2}`, `{"a":2}`},
		{`1e999999999999999999999`, `1e999999999999999999998`},
		{`-1.5e-3`, `-0.0015`},
		{`{"n":0.1}`, `{"n":0.10000000000000001}`},
		{`{"n":9007199254740993}`, `{"n":9007199254740993.0}`},
		{`{"z":[1,2,3,{"b":[],"a":{}}],"y":{"x":"\u0041","w":-0}}`, `{"y":{"w":0,"x":"A"},"z":[1,2,3,{"a":{},"b":[]}]}`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka, kb := exactArgsKey(a), exactArgsKey(b)
		if ka != exactArgsKey(a) {
			t.Fatalf("exactArgsKey(%q) not deterministic", a)
		}
		if a == b && ka != kb {
			t.Fatalf("equal texts %q give different keys", a)
		}
		va, oka := decodeAny(a)
		vb, okb := decodeAny(b)
		if !oka || !okb {
			if (ka == kb) != (a == b) {
				t.Fatalf("invalid JSON %q / %q: keys equal %v, texts equal %v", a, b, ka == kb, a == b)
			}
			return
		}
		for _, c := range []struct {
			text string
			v    any
		}{{a, va}, {b, vb}} {
			re, err := json.Marshal(c.v)
			if err != nil {
				t.Fatalf("re-encoding %q: %v", c.text, err)
			}
			if exactArgsKey(string(re)) != exactArgsKey(c.text) {
				t.Fatalf("re-encoding %q as %s changed its key", c.text, re)
			}
		}
		if eq, ok := semanticEqual(va, vb); ok && eq != (ka == kb) {
			t.Fatalf("%q vs %q: semantically equal %v, keys equal %v (%q, %q)", a, b, eq, ka == kb, ka, kb)
		}
	})
}
