package truncate

import (
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello", 3, "hel"},
		{"hello", 0, ""},
		{"hello", -1, ""},
		{"héllo", 2, "h"}, // é is 2 bytes at 1..2: cut before it
		{"héllo", 3, "hé"},
		{"日本語", 4, "日"},
		{"日本語", 6, "日本"},
	} {
		if got := String(c.s, c.n); got != c.want {
			t.Errorf("String(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestEllipsis(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello world", 8, "hello…"},
		{"日本語です", 8, "日…"},
		{"hello", 2, "…"},
	} {
		got := Ellipsis(c.s, c.n)
		if got != c.want {
			t.Errorf("Ellipsis(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
		if len(got) > max(c.n, len("…")) || !utf8.ValidString(got) {
			t.Errorf("Ellipsis(%q, %d) = %q: over budget or not UTF-8", c.s, c.n, got)
		}
	}
}
