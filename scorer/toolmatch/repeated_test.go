package toolmatch

import "testing"

func TestRepeated(t *testing.T) {
	c := func(name, args string) Call { return Call{Name: name, Arguments: args} }
	tests := []struct {
		name  string
		calls []Call
		want  int
	}{
		{"none", nil, 0},
		{"one", []Call{c("a", `{}`)}, 0},
		{"three identical", []Call{c("a", `{}`), c("a", `{}`), c("a", `{}`)}, 2},
		{"other names", []Call{c("a", `{}`), c("b", `{}`), c("c", `{}`)}, 0},
		{"1 and 1.0", []Call{c("a", `{"n":1}`), c("a", `{"n":1.0}`)}, 1},
		{"JSON blanks", []Call{c("a", `{"n":1}`), c("a", " {\"n\" : 1}\n")}, 1},
		{"other blanks are raw text", []Call{c("a", `{}`), c("a", "\v{}")}, 0},
		{"same invalid text", []Call{c("a", `{x:1}`), c("a", `{x:1}`)}, 1},
		{"empty and {}", []Call{c("a", ``), c("a", `{}`)}, 0},
		{"non-adjacent", []Call{c("a", `{"q":"x"}`), c("b", `{}`), c("a", `{"q":"y"}`), c("a", `{"q":"x"}`)}, 1},
	}
	for _, tt := range tests {
		if got := Repeated(tt.calls, Decode); got != tt.want {
			t.Errorf("%s: Repeated = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestRepeatedLongRuns checks Repeated on long runs against its
// definition: call i repeats when an earlier call has its name and
// arguments equal under exactArgsKey.
func TestRepeatedLongRuns(t *testing.T) {
	args := []string{`{"a":1}`, `{"a":1.0}`, `{"a":2}`, `{"b":[1,2],"a":1}`, `{"a":1,"b":[1,2]}`, `not json`, `not json`, `[]`,
		` {"a":1}`, "\v{}", `{}`, ``, ` `, "\u00a0{}", `{"a":1e0}`}
	names := []string{"x", "y", "z"}
	for _, n := range []int{1, 2, 7, 33, 100} {
		calls := make([]Call, n)
		for i := range calls {
			calls[i] = Call{Name: names[(i*7)%len(names)], Arguments: args[(i*5)%len(args)]}
		}
		want := 0
		for i := range calls {
			for j := range i {
				if calls[i].Name == calls[j].Name && exactArgsKey(calls[i].Arguments) == exactArgsKey(calls[j].Arguments) {
					want++
					break
				}
			}
		}
		if got := Repeated(calls, Decode); got != want {
			t.Errorf("n=%d: Repeated = %d, want %d", n, got, want)
		}
	}
}
