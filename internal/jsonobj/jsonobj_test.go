package jsonobj

import (
	"encoding/json"
	"strings"
	"testing"
)

// reference is the definition Valid must agree with.
func reference(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return len(t) > 1 && t[0] == '{' && json.Valid([]byte(t))
}

var cases = []string{
	`{}`, ` {"a":1} `, "\n{\"a\":[1,2,{\"b\":null}]}\t", `{"a":1}{}`, `{"a":}`, `[]`, `"x"`, ``, `{`,
	`{"a":01}`, `{"a":1.}`, `{"a":-0.5e+3}`, `{"a":"\u00e9"}`, `{"a":"\x"}`, "{\"a\":\"\x01\"}",
	"{\"a\":\"\xff\"}", `{"a":tru}`, `{"a":true,}`, `{,}`, `{"a" "b"}`, `{"a":1 }  x`, `{"a":NaN}`,
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, c := range cases {
		if got, want := Valid(c), reference(c); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, c := range cases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Valid(s), reference(s); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", s, got, want)
		}
	})
}
