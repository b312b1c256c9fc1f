package editdist

import "testing"

// Published distances (the Wikipedia examples and edge cases).
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"kitten", "sitting", 3},
		{"saturday", "sunday", 3},
		{"flaw", "lawn", 2},
		{"", "abc", 3},
		{"abc", "", 3},
		{"", "", 0},
		{"endpoint", "endpont", 1},
		{"héllo", "hello", 1}, // code points, not bytes
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"endpoint", "enabled", "timeout", "tls", "headers", "level"}
	for _, c := range []struct{ s, want string }{
		{"endpont", "endpoint"},
		{"enabeld", "enabled"},
		{"timout", "timeout"},
		{"tsl", "tls"},      // a swap: 2 edits
		{"levle", "level"},  // a swap
		{"compression", ""}, // nothing near
		{"x", ""},
		{"ab", ""}, // 1 edit allowed, "tls" is 3 away
	} {
		if got := Closest(c.s, keys); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	if got := Closest("ab", []string{"ac", "ad"}); got != "" {
		t.Errorf("tie: Closest = %q, want none", got)
	}
}
