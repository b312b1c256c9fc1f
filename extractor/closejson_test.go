package extractor

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCloseJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[{"role":"assistant","parts":[{"type":"text","content":"long ans`, `[{"role":"assistant","parts":[{"type":"text","content":"long ans"}]}]`},
		{`{"a":"x\`, `{"a":"x"}`},
		{`{"a":"x\u00`, `{"a":"x"}`},
		{`{"a":"x\\u00`, `{"a":"x\\u00"}`},
		{`{"a":1,"b":tr`, `{"a":1}`},
		{`{"a":1,"bb`, `{"a":1}`},
		{`{"a":`, `{}`},
		{`[1,2,3`, `[1,2]`},
		{`[[1],[2`, `[[1],[]]`},
		{`{"a":{"b":["c","d`, `{"a":{"b":["c","d"]}}`},
	}
	for _, tt := range tests {
		if got := closeJSON(tt.in); got != tt.want {
			t.Errorf("closeJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzCloseJSON checks, against encoding/json, that every prefix of a
// valid JSON object or array is closed into valid JSON.
func FuzzCloseJSON(f *testing.F) {
	for _, s := range []string{
		`[{"role":"assistant","parts":[{"type":"text","content":"on its \"way\" \u00e9 \\ done"}],"finish_reason":"stop"}]`,
		`{"a":[1,-2.5e3,true,false,null,{"b":{}}],"c":"\ud83d\ude00"}`,
		`[[],{},[[{"k":"v"}]]]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if t := strings.TrimSpace(doc); !json.Valid([]byte(doc)) || (t[0] != '[' && t[0] != '{') {
			return
		}
		for n := range len(doc) {
			got := closeJSON(doc[:n])
			if strings.TrimSpace(doc[:n]) == "" {
				continue
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("closeJSON(%q) = %q, not JSON", doc[:n], got)
			}
		}
	})
}
