package toolmatch

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// checkDecode fails when Decode disagrees with encoding/json on s: it
// must accept what json.Valid accepts and decode to what encoding/json
// decodes with UseNumber (decodeAny), with object keys unique.
func checkDecode(t *testing.T, s string) {
	t.Helper()
	v, err := Decode(s)
	want, ok := decodeAny(s)
	if valid := json.Valid([]byte(s)); (err == nil) != valid || ok != valid {
		t.Fatalf("%q: Decode error %v, encoding/json ok %v, json.Valid %v", s, err, ok, valid)
	}
	if err != nil {
		return
	}
	if got := v.toAny(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode(%q) = %#v, encoding/json gives %#v", s, got, want)
	}
	checkUniqueKeys(t, &v)
}

func checkUniqueKeys(t *testing.T, v *Value) {
	t.Helper()
	seen := map[string]bool{}
	for i := range v.Members {
		if seen[v.Members[i].Key] {
			t.Fatalf("key %q twice", v.Members[i].Key)
		}
		seen[v.Members[i].Key] = true
		checkUniqueKeys(t, &v.Members[i].Value)
	}
	for i := range v.Elems {
		checkUniqueKeys(t, &v.Elems[i])
	}
}

func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"a":1,"a":2,"b":3}`, `{"a":{"x":1},"a":[2]}`, `-0`, `1.0`, `1e0`, `1E+2`, `-1.5e-3`, ` 7 `, `[]`, `{}`, `[[],{}]`,
		`123456789012345678901234567890`, `"\u00e9\ud83d\ude00\ud800\udc00"`, `"\ud800x"`, `"\ud800\u0041"`, "\"\xff\xc3\"",
		`"\/\b\f\n\r\t\"\\"`, `"a\\"`, `["\\\"",1]`, `{"\"k\"":"\\"}`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"k":`, 3000) + "null" + strings.Repeat("}", 3000),
		"[" + strings.Repeat("[],", 10001) + "[]]", `"` + strings.Repeat("[", 10001) + `"`, "[" + strings.Repeat("{},", 10001) + "]",
		`{"a":"\x"}`, `{"a":"\u00g0"}`, "\"\\\x01\"", `"\u12"`, `"abc\`, `{"a" : 1 , "b" : [ 1 , 2 ] }`,
		"{\"a\"\t:\n1\r}", `[1,2,]`, `{,}`, `{"a":1 "b":2}`, `[-]`, `[01]`, `[1.]`, `[1e]`, `[.5]`, `[tru]`, `[nulL]`,
		`[NaN]`, `[Infinity]`, `[+1]`, `{"a":1}}`, `{"a":1} {}`, `1 2`, `1x`, `1]`, `"a"b`, "{}\n\t ", "1\v", "\ufeff{}", " ", ``, `nul`, `"`, `[1,[2,[3,[4]]],{"x":{"y":[true,false,null]}}]`,
		`{"a":"}]","b":["\"]",{"c":"{["}]}`, `[[],[[]],{},{"":{}}]`, "[\t1\n,\r-0.5e+3 , 2E-2]", `{"\u0022":"\\\""}`,
		`{"a\\":"b\\\\","a\\":1}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"a":9,"i":10,"h":11,"j":12,"i":13}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"g":8,"h":9,"a":10}`, `[true,false,null,"true"]`, `{"é":"\u00e9","\u00e9":1}`,
	} {
		checkDecode(t, s)
	}
}

func TestDecodeKeepsDocumentOrder(t *testing.T) {
	v, err := Decode(`{"b":1,"a":{"z":true,"y":null},"b":2,"c":[3,"x"]}`)
	if err != nil {
		t.Fatal(err)
	}
	want := Value{Kind: Object, Members: []Member{
		{"b", Value{Kind: Number, Text: "2"}},
		{"a", Value{Kind: Object, Members: []Member{{"z", Value{Kind: Bool, Bool: true}}, {"y", Value{Kind: Null}}}}},
		{"c", Value{Kind: Array, Elems: []Value{{Kind: Number, Text: "3"}, {Kind: String, Text: "x"}}}},
	}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("Decode = %+v\nwant %+v", v, want)
	}
	// Past a few members, repeated keys are found by a map: the same rule.
	var doc, keys []string
	for i := range 12 {
		k := fmt.Sprintf("k%d", i)
		doc, keys = append(doc, fmt.Sprintf("%q:%d", k, i)), append(keys, k)
	}
	doc = append(doc, `"k3":"x"`, `"k10":"y"`)
	v, err = Decode("{" + strings.Join(doc, ",") + "}")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range v.Members {
		got = append(got, m.Key)
	}
	if !slices.Equal(got, keys) || v.Members[3].Value.Text != "x" || v.Members[10].Value.Text != "y" {
		t.Errorf("Decode of 12 members, 2 repeated = %+v", v.Members)
	}
}

// decodeAny decodes one JSON document as encoding/json decodes it into
// an any with UseNumber; ok is false when it is not valid JSON. It is the
// oracle the decoder and the argument keys are checked against.
func decodeAny(s string) (v any, ok bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil, false
	}
	// Only JSON blanks may follow the value.
	return v, strings.Trim(s[dec.InputOffset():], " \t\r\n") == ""
}

// toAny returns v as encoding/json decodes it into an any with UseNumber:
// map[string]any, []any, json.Number, string, bool or nil.
func (v *Value) toAny() any {
	switch v.Kind {
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Text)
	case String:
		return v.Text
	case Array:
		a := make([]any, len(v.Elems))
		for i := range v.Elems {
			a[i] = v.Elems[i].toAny()
		}
		return a
	case Object:
		m := make(map[string]any, len(v.Members))
		for i := range v.Members {
			m[v.Members[i].Key] = v.Members[i].Value.toAny()
		}
		return m
	}
	return nil
}
