package toolmatch

import "testing"

func TestKeyEquality(t *testing.T) {
	tests := []struct {
		a, b   string
		eq     Equality
		equal  bool
		reason string
	}{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, JSONEqual, true, "key order"},
		{`{"a":1}`, `{"a":1.0}`, JSONEqual, true, "1 == 1.0"},
		{`{"a":1}`, `{"a":1e0}`, PythonEqual, true, "1 == 1e0"},
		{`{"a":true}`, `{"a":1}`, JSONEqual, false, "bool is not a number in JSON"},
		{`{"a":true}`, `{"a":1}`, PythonEqual, true, "True == 1"},
		{`{"a":false}`, `{"a":0.0}`, PythonEqual, true, "False == 0.0"},
		{`{"a":"1"}`, `{"a":1}`, PythonEqual, false, `"1" != 1`},
		{``, `{}`, PythonEqual, false, "None != {}"},
		{``, `null`, PythonEqual, true, "None == None"},
		{``, `{}`, JSONEqual, true, "Vertex sends tool_input {}"},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, PythonEqual, false, "list order"},
		{`{"a":100000000000000000000}`, `{"a":1e20}`, PythonEqual, true, "big int == float"},
		{`{"a":9007199254740993}`, `{"a":9007199254740993.0}`, PythonEqual, false, "float rounds, int does not"},
		{`{"a":0.1}`, `{"a":0.10000000000000001}`, PythonEqual, true, "same double"},
		{`{"a":-0}`, `{"a":0.0}`, PythonEqual, true, "-0 == 0.0"},
		{`{"a":1}`, `{"a":2}`, NameOnly, true, "ignore args"},
		{`not json`, `not json`, JSONEqual, true, "same raw text"},
		{`not json`, `not  json`, JSONEqual, false, "different raw text"},
		{`{"a":{"x":1,"y":2}}`, `{"a":{"y":2,"x":1.0}}`, PythonEqual, true, "nested"},
		{`{"ab":"c"}`, `{"a":"bc"}`, JSONEqual, false, "length-prefixed strings"},
	}
	for _, tt := range tests {
		ka := Key(Call{Name: "f", Args: tt.a}, tt.eq)
		kb := Key(Call{Name: "f", Args: tt.b}, tt.eq)
		if (ka == kb) != tt.equal {
			t.Errorf("%s: %q vs %q equal = %v, want %v", tt.reason, tt.a, tt.b, ka == kb, tt.equal)
		}
	}
	if Key(Call{Name: "f"}, NameOnly) == Key(Call{Name: "g"}, NameOnly) {
		t.Error("names ignored")
	}
}

func TestExactArgsKey(t *testing.T) {
	tests := []struct {
		a, b   string
		equal  bool
		reason string
	}{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, true, "key order"},
		{`{"a":1}`, `{"a":1.0}`, true, "1 == 1.0"},
		{`{"a":1}`, `{"a":1e0}`, true, "1 == 1e0"},
		{`{"a":100}`, `{"a":1E+2}`, true, "100 == 1E+2"},
		{`{"a":-0}`, `{"a":0}`, true, "-0 == 0"},
		{`{"a":-0.0e7}`, `{"a":0}`, true, "-0.0e7 == 0"},
		{`{"a":-1.5e-3}`, `{"a":-0.0015}`, true, "exponent and fraction"},
		{`{"a":12345678901234567890}`, `{"a":12345678901234567891}`, false, "big integers told apart"},
		{`{"a":9007199254740993}`, `{"a":9007199254740993.0}`, true, "exact, not rounded to a double"},
		{`{"a":0.1}`, `{"a":0.10000000000000001}`, false, "exact, not the same double"},
		{`{"a":1e999999999999999999999}`, `{"a":1e999999999999999999998}`, false, "huge exponents by text"},
		{`{"a":true}`, `{"a":1}`, false, "bool is not a number"},
		{`{"a":"1"}`, `{"a":1}`, false, "string is not a number"},
		{`{"a":1,"a":2}`, `{"a":2}`, true, "repeated key keeps the last value"},
		{`{"a":"\u00e9"}`, `{"a":"é"}`, true, "escapes decoded"},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false, "array order"},
		{` {"a":1}`, `{"a":1}`, true, "blanks around JSON"},
		{``, `{}`, false, "empty text is not {}"},
		{``, ` `, false, "invalid text is raw, not trimmed"},
		{`not json`, `not json`, true, "same raw text"},
		{`{"a":1} x`, `{"a":1}`, false, "trailing data is invalid"},
		{`{"ab":"c"}`, `{"a":"bc"}`, false, "length-prefixed strings"},
	}
	for _, tt := range tests {
		if ka, kb := ExactArgsKey(tt.a), ExactArgsKey(tt.b); (ka == kb) != tt.equal {
			t.Errorf("%s: %q vs %q equal = %v, want %v", tt.reason, tt.a, tt.b, ka == kb, tt.equal)
		}
	}
}
