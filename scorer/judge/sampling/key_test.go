package sampling

import (
	"crypto/sha256"
	"testing"
)

func TestNewKey(t *testing.T) {
	base := NewKey("faithfulness", "gpt", "ab", "c")
	if base != NewKey("faithfulness", "gpt", "ab", "c") {
		t.Fatal("NewKey is not deterministic")
	}
	for name, k := range map[string]Key{
		"parts split differently": NewKey("faithfulness", "gpt", "a", "bc"),
		"parts joined":            NewKey("faithfulness", "gpt", "abc"),
		"extra empty part":        NewKey("faithfulness", "gpt", "ab", "c", ""),
		"parts swapped":           NewKey("faithfulness", "gpt", "c", "ab"),
		"other metric":            NewKey("groundedness", "gpt", "ab", "c"),
		"other judge":             NewKey("faithfulness", "gemini", "ab", "c"),
	} {
		if k == base {
			t.Errorf("%s: same key as the base", name)
		}
	}
	if NewKey("m", "j") == NewKey("m", "j", "") {
		t.Error("no parts and one empty part give the same key")
	}
	// The content hash covers the parts only; the metric and judge are
	// kept apart in the key.
	if a, b := NewKey("m1", "j", "x"), NewKey("m2", "j", "x"); a.Content != b.Content {
		t.Error("the content hash depends on the metric")
	}
	// Pinned: length-prefixed parts, uvarint lengths.
	want := sha256.Sum256([]byte{2, 'a', 'b', 1, 'c'})
	if base.Content != want {
		t.Errorf("content hash = %x, want %x", base.Content, want)
	}
	if got := base.String(); got != "faithfulness/gpt/"+hex8(want) {
		t.Errorf("String = %q", got)
	}
}

func hex8(b [32]byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 16)
	for _, c := range b[:8] {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
