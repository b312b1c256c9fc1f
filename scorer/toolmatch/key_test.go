package toolmatch

import (
	"strings"
	"testing"
)

// argsKey returns the key appendArgsKey gives args under eq.
func argsKey(args string, eq Equality) string { return string(appendArgsKey(nil, args, eq, Decode)) }

// keyBy returns the ArgsKey of eq, the arguments decoded by Decode (nil
// for NameOnly).
func keyBy(eq Equality) ArgsKey {
	if eq == NameOnly {
		return nil
	}
	return func(args string) string { return argsKey(args, eq) }
}

// exactArgsKey returns the key appendExactArgsKey gives raw.
func exactArgsKey(raw string) string { return string(appendExactArgsKey(nil, raw, Decode)) }

func TestArgsKeyEquality(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		eq    Equality
		equal bool
	}{
		{"key order", `{"a":1,"b":2}`, `{"b":2,"a":1}`, JSONEqual, true},
		{"1 == 1.0", `{"a":1}`, `{"a":1.0}`, JSONEqual, true},
		{"1 == 1e0", `{"a":1}`, `{"a":1e0}`, PythonEqual, true},
		{"bool is not a number in JSON", `{"a":true}`, `{"a":1}`, JSONEqual, false},
		{"True == 1", `{"a":true}`, `{"a":1}`, PythonEqual, true},
		{"True == 1.0", `{"a":[true]}`, `{"a":[1.0]}`, PythonEqual, true},
		{"False == 0.0", `{"a":false}`, `{"a":0.0}`, PythonEqual, true},
		{"False == -0.0", `{"a":false}`, `{"a":-0.0}`, PythonEqual, true},
		{"many booleans under Python", `[true,true,true,true,true,true,true,true,true,false]`, `[1,1,1,1,1,1,1,1,1,0]`, PythonEqual, true},
		{"many booleans under JSON", `[true,true,true,true,true,true,true,true,true,false]`, `[1,1,1,1,1,1,1,1,1,0]`, JSONEqual, false},
		{`"1" != 1`, `{"a":"1"}`, `{"a":1}`, PythonEqual, false},
		{"None != {}", ``, `{}`, PythonEqual, false},
		{"None == None", ``, `null`, PythonEqual, true},
		{"blank is None", ` `, `null`, PythonEqual, true},
		{"Vertex sends tool_input {}", ``, `{}`, JSONEqual, true},
		{"list order", `{"a":[1,2]}`, `{"a":[2,1]}`, PythonEqual, false},
		{"big int == float", `{"a":100000000000000000000}`, `{"a":1e20}`, PythonEqual, true},
		{"float rounds, int does not", `{"a":9007199254740993}`, `{"a":9007199254740993.0}`, PythonEqual, false},
		{"big int beyond a double", `{"a":9007199254740993}`, `{"a":9007199254740993.0}`, JSONEqual, false},
		{"same double", `{"a":0.1}`, `{"a":0.10000000000000001}`, PythonEqual, true},
		{"-0 == 0.0", `{"a":-0}`, `{"a":0.0}`, PythonEqual, true},
		{"-0.0 == 0", `{"a":-0.0}`, `{"a":0}`, JSONEqual, true},
		{"overflowing floats are inf", `{"a":1e400}`, `{"a":2e400}`, PythonEqual, true},
		{"inf is not a big int", `{"a":1e400}`, `{"a":1` + strings.Repeat("0", 400) + `}`, PythonEqual, false},
		{"underflow is 0", `{"a":1e-400}`, `{"a":0}`, PythonEqual, true},
		{"fractions by double", `{"a":2.5}`, `{"a":25e-1}`, JSONEqual, true},
		{"fraction is not an int", `{"a":2.5}`, `{"a":2}`, JSONEqual, false},
		{"same raw text", `not json`, `not json`, JSONEqual, true},
		{"different raw text", `not json`, `not  json`, JSONEqual, false},
		{"raw text trimmed", ` not json`, "not json\n", PythonEqual, true},
		{"nested", `{"a":{"x":1,"y":2}}`, `{"a":{"y":2,"x":1.0}}`, PythonEqual, true},
		{"length-prefixed strings", `{"ab":"c"}`, `{"a":"bc"}`, JSONEqual, false},
		{"duplicate key, last value", `{"a":1,"a":2}`, `{"a":2}`, JSONEqual, true},
		{"duplicate key, not the first value", `{"a":1,"a":2}`, `{"a":1}`, PythonEqual, false},
		{"many duplicate keys", `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":0}`, `{"a":0,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17}`, JSONEqual, true},
		{"unicode escapes", `{"\u0061":"\u00e9"}`, `{"a":"é"}`, JSONEqual, true},
		{"invalid UTF-8 is U+FFFD", "{\"a\":\"\xff\xfe\"}", `{"a":"\ufffd\ufffd"}`, PythonEqual, true},
		{"lone surrogate is U+FFFD", `{"a":"\ud800"}`, `{"a":"\ufffd"}`, JSONEqual, true},
		{"lone surrogate keeps the next escape", `{"a":"\ud800\u0041"}`, `{"a":"\ufffdA"}`, JSONEqual, true},
		{"deep nesting", strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300), strings.Repeat(`{"a":`, 300) + "1.0" + strings.Repeat("}", 300), JSONEqual, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ka, kb := argsKey(tt.a, tt.eq), argsKey(tt.b, tt.eq); (ka == kb) != tt.equal {
				t.Errorf("%q vs %q: keys equal %v, want %v (%q, %q)", tt.a, tt.b, ka == kb, tt.equal, ka, kb)
			}
		})
	}
}

func TestExactArgsKey(t *testing.T) {
	tests := []struct {
		name  string
		a, b  string
		equal bool
	}{
		{"key order", `{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{"1 and 1.0", `{"a":1}`, `{"a":1.0}`, true},
		{"1 and 1e0", `{"a":1}`, `{"a":1e0}`, true},
		{"100 and 1E+2", `{"a":100}`, `{"a":1E+2}`, true},
		{"-0 and 0", `{"a":-0}`, `{"a":0}`, true},
		{"-0.0e7 and 0", `{"a":-0.0e7}`, `{"a":0}`, true},
		{"fraction and exponent", `{"a":-1.5e-3}`, `{"a":-0.0015}`, true},
		{"sign matters", `{"a":-1.5}`, `{"a":1.5}`, false},
		{"big integers told apart", `{"a":12345678901234567890}`, `{"a":12345678901234567891}`, false},
		{"exact, not rounded to a double", `{"a":9007199254740993}`, `{"a":9007199254740993.0}`, true},
		{"exact, not the same double", `{"a":0.1}`, `{"a":0.10000000000000001}`, false},
		{"32-digit integer and its exponent form", `{"a":10000000000000000000000000000000}`, `{"a":1e31}`, true},
		{"33-digit integer and its exponent form", `{"a":100000000000000000000000000000000}`, `{"a":1e32}`, true},
		{"33-digit integer and a fraction", `{"a":100000000000000000000000000000000}`, `{"a":1000000000000000000000000000000000e-1}`, true},
		{"huge exponents by text", `{"a":1e999999999999999999999}`, `{"a":1e999999999999999999998}`, false},
		{"same huge exponent", `{"a":1e999999999999999999999}`, `{"a":1e999999999999999999999}`, true},
		{"exponent at the bound is numeric", `{"a":1e1152921504606846976}`, `{"a":10e1152921504606846975}`, true},
		{"exponent beyond the bound is text", `{"a":1e1152921504606846977}`, `{"a":10e1152921504606846976}`, false},
		{"bool is not a number", `{"a":true}`, `{"a":1}`, false},
		{"string is not a number", `{"a":"1"}`, `{"a":1}`, false},
		{"repeated key keeps the last value", `{"a":1,"a":2}`, `{"a":2}`, true},
		{"repeated key keeps its first place", `{"a":1,"b":0,"a":2}`, `{"b":0,"a":2}`, true},
		{"escapes decoded", `{"a":"\u00e9"}`, `{"a":"é"}`, true},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, `{"a":"😀"}`, true},
		{"lone surrogate is U+FFFD", `{"a":"\ud800"}`, `{"a":"\ufffd"}`, true},
		{"invalid UTF-8 is U+FFFD", "{\"a\":\"\xff\"}", `{"a":"\ufffd"}`, true},
		{"array order", `{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{"JSON blanks around", " \t{\"a\":1}\r\n", `{"a":1}`, true},
		{"other blanks make raw text", "\v{\"a\":1}", `{"a":1}`, false},
		{"no-break space makes raw text", "{\"a\":1}\u00a0", `{"a":1}`, false},
		{"same raw text with other blanks", "\v{\"a\":1}", "\v{\"a\":1}", true},
		{"empty text is not {}", ``, `{}`, false},
		{"blank text is raw, not trimmed", ``, ` `, false},
		{"same blank text", ` `, ` `, true},
		{"same invalid text", `not json`, `not json`, true},
		{"invalid text not trimmed", `not json`, ` not json`, false},
		{"trailing data is invalid", `{"a":1} x`, `{"a":1}`, false},
		{"length-prefixed strings", `{"ab":"c"}`, `{"a":"bc"}`, false},
		{"null", `null`, ` null `, true},
		{"deep nesting", strings.Repeat("[", 500) + strings.Repeat("]", 500), strings.Repeat("[", 500) + strings.Repeat("]", 500), true},
		{"too deep is raw text", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + " ", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ka, kb := exactArgsKey(tt.a), exactArgsKey(tt.b); (ka == kb) != tt.equal {
				t.Errorf("keys equal %v, want %v (%q, %q)", ka == kb, tt.equal, ka, kb)
			}
		})
	}
}
