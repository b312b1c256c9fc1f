package runhealth

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// parseJSON is how tool_args_valid decodes arguments it validates.
func parseJSON(s string) (any, error) { return jsonschema.UnmarshalJSON(strings.NewReader(s)) }

// referenceDecode decodes s with encoding/json the way parseJSON claims
// to: into any, with UseNumber, nothing but whitespace after the value.
func referenceDecode(s string) (any, bool) {
	if !json.Valid([]byte(s)) {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

// checkParse fails when parseJSON disagrees with encoding/json on s.
func checkParse(t *testing.T, s string) {
	t.Helper()
	got, err := parseJSON(s)
	want, ok := referenceDecode(s)
	if (err == nil) != ok {
		t.Fatalf("parseJSON(%q) error = %v, encoding/json accepts: %v", s, err, ok)
	}
	if ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("parseJSON(%q) = %#v, encoding/json gives %#v", s, got, want)
	}
}

// FuzzIsJSONObject checks the object test used by tool_args_valid against
// a full decode.
func FuzzIsJSONObject(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":[1,2]} `, `[]`, `null`, `"x"`, `{"a":1}}`, `{`, ``, "\t{}\n", `{"a":1} {}`, "\ufeff{}", `{"a":"\ud83d\ude00","b":"\ud800"}`, "{\"a\":\"\xff\"}", `[1.5e+10,-0,0.0e0,tru]`, `{"k":"v\u0000"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkParse(t, s)
		v, err := parseJSON(s)
		_, obj := v.(map[string]any)
		if want := err == nil && obj; jsonobj.Valid(s) != want {
			t.Fatalf("jsonobj.Valid(%q) = %v, want %v (decode err %v)", s, !want, want, err)
		}
	})
}
