package redact

import (
	"strings"
	"testing"
)

func TestKeyBefore(t *testing.T) {
	long := strings.Repeat("k", 70) + "_token"
	cases := []struct{ in, want string }{
		{`password: x`, "password"},
		{`"api_key" : "v"`, "api_key"},
		{`{\"client_secret\":\"v\"}`, "client_secret"},
		{`{\\\"token\\\": 1}`, "token"},
		{`'db.pass-word'='v'`, "db.pass-word"},
		{"key\t= v", "key"},
		{`  : x`, ""},
		{`"": x`, ""},
		{long + "=v", long[len(long)-64:]},
	}
	for _, c := range cases {
		i := strings.IndexAny(c.in, ":=")
		if got := keyBefore(c.in, i); got != c.want {
			t.Errorf("keyBefore(%q, %d) = %q, want %q", c.in, i, got, c.want)
		}
	}
}

func TestValueAfter(t *testing.T) {
	cases := []struct {
		in     string
		want   string
		wantOK bool
	}{
		{`k=v1 rest`, "v1", true},
		{"k:\t v;", "v", true},
		{`k:=v`, "v", true},
		{`k==v`, "", false},
		{`k=`, "", true},
		{`k: "a b"c`, "a b", true},
		{`k: 'it\'s' x`, `it\'s`, true},
		{"k: \"open\nnext\"", "open", true},
		{`k: "to the end`, "to the end", true},
		{`k: \"s3\", x`, "s3", true},
		{`k: \\\"deep \"q\" \\\" x`, `deep \"q\" `, true},
		{`k: \"open`, "open", true},
		{`k=a&b`, "a", true},
		{"k=a`b", "a", true},
	}
	for _, c := range cases {
		i := strings.IndexAny(c.in, ":=")
		start, end, ok := valueAfter(c.in, i)
		if ok != c.wantOK || ok && c.in[start:end] != c.want {
			t.Errorf("valueAfter(%q, %d) = %q, %v; want %q, %v", c.in, i, c.in[start:end], ok, c.want, c.wantOK)
		}
	}
}

func TestSecretPairs(t *testing.T) {
	d := secretDetector{secrets: true, phones: true}
	cases := []struct {
		in   string
		want []string // "type:value"
	}{
		{`password=hunter2`, []string{"secret:hunter2"}},
		{`DB_PASSWORD: "p@ss w"`, []string{"secret:p@ss w"}},
		{`if token == expected`, nil},
		{`token := "abc"`, []string{"secret:abc"}},
		{`{"token": null, "secret": {"a": 1}, "api_key": []}`, nil},
		{`{"apikey": ""}`, nil},
		{`password=[REDACTED:secret]`, nil},
		{`user=bob`, nil},
		{`phone: 415 555 2671`, nil}, // the unquoted value ends at the space: 3 digits
		{`phone: "415 555 2671"`, []string{"phone:415 555 2671"}},
		{`phone: "call me"`, nil},
		{`mobile=+4915123456789`, []string{"phone:+4915123456789"}},
		{`fax: "123"`, nil},
		{`token=a token=b`, []string{"secret:a", "secret:b"}},
	}
	for _, c := range cases {
		var got []string
		for _, m := range d.find(c.in, nil) {
			got = append(got, m.typ+":"+c.in[m.start:m.end])
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("find(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
