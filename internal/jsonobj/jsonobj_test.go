package jsonobj

import (
	"strings"
	"testing"
)

func TestValid(t *testing.T) {
	deep := func(n int) string { return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}` }
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{}`, true},
		{` {"a":1} `, true},
		{"\n{\"a\":[1,2,{\"b\":null}]}\t", true},
		{`{"a":-0.5e+3}`, true},
		{`{"a":"\u00e9"}`, true},
		{"{\"a\":\"\xff\"}", true}, // encoding/json leaves string bytes unchecked
		{deep(9999), true},
		{deep(10000), false}, // 10001 levels with the object
		{`{"a":1}{}`, false},
		{`{"a":}`, false},
		{`[]`, false},
		{`"x"`, false},
		{``, false},
		{`{`, false},
		{`{"a":01}`, false},
		{`{"a":1.}`, false},
		{`{"a":"\x"}`, false},
		{"{\"a\":\"\x01\"}", false},
		{`{"a":tru}`, false},
		{`{"a":true,}`, false},
		{`{,}`, false},
		{`{"a" "b"}`, false},
		{`{"a":1 }  x`, false},
		{`{"a":NaN}`, false},
		{"\v{}", false},
	} {
		if got := Valid(tt.in); got != tt.want {
			t.Errorf("Valid(%.40q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
