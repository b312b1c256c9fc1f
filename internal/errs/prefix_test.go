package errs

import (
	"errors"
	"fmt"
	"testing"
)

func TestPrefix(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"one", errors.New("a: bad"), "x.a: bad"},
		{"joined", errors.Join(errors.New("a: bad"), errors.New("b: worse")), "x.a: bad\nx.b: worse"},
		{"nested", errors.Join(errors.Join(errors.New("a: bad")), errors.New("b: worse")), "x.a: bad\nx.b: worse"},
		{"wrapping joined", fmt.Errorf("m[0]: %w", errors.Join(errors.New("a: bad"), errors.New("b: worse"))), "x.m[0]: a: bad\nx.b: worse"},
	}
	for _, tt := range tests {
		got := Prefix("x.", tt.err)
		if (got == nil) != (tt.want == "") || got != nil && got.Error() != tt.want {
			t.Errorf("%s: Prefix = %v, want %q", tt.name, got, tt.want)
		}
	}
	base := errors.New("a: bad")
	if !errors.Is(Prefix("x.", base), base) {
		t.Error("Prefix hides the error from errors.Is")
	}
}
