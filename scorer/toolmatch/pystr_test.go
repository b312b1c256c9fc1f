package toolmatch

import "testing"

func TestPyStr(t *testing.T) {
	tests := []struct{ json, want string }{
		{`"plain"`, "plain"},
		{`1`, "1"},
		{`-0`, "0"},
		{`12345678901234567890`, "12345678901234567890"},
		{`1.0`, "1.0"},
		{`1e0`, "1.0"},
		{`0.1`, "0.1"},
		{`1e-05`, "1e-05"},
		{`0.0001`, "0.0001"},
		{`1e16`, "1e+16"},
		{`1e15`, "1000000000000000.0"},
		{`1.5e16`, "1.5e+16"},
		{`123456789012345678.0`, "1.2345678901234568e+17"},
		{`-2.5`, "-2.5"},
		{`-0.0`, "-0.0"},
		{`1e400`, "inf"},
		{`1e100`, "1e+100"},
		{`true`, "True"},
		{`false`, "False"},
		{`null`, "None"},
		{`{"k": 1, "a": [1, 2.0, "x"]}`, "{'k': 1, 'a': [1, 2.0, 'x']}"},
		{`{"b": 1, "a": 2}`, "{'b': 1, 'a': 2}"},
		{`{"a": 1, "a": 2, "b": 3}`, "{'a': 2, 'b': 3}"},
		{`["it's"]`, `["it's"]`},
		{`["say \"hi\""]`, `['say "hi"']`},
		{`["both ' and \""]`, `['both \' and "']`},
		{`["tab\tnl\nback\\"]`, `['tab\tnl\nback\\']`},
		{`["\u0001\u007f"]`, `['\x01\x7f']`},
		{`["é✓"]`, `['é✓']`},
		{`["\u00a0\u2028"]`, `['\xa0\u2028']`},
		{`["😀"]`, `['😀']`},
		{`[{"x": null}]`, `[{'x': None}]`},
	}
	for _, tt := range tests {
		v, err := Decode(tt.json)
		if err != nil {
			t.Fatalf("%s: %v", tt.json, err)
		}
		if got := PyStr(&v); got != tt.want {
			t.Errorf("PyStr(%s) = %s, want %s", tt.json, got, tt.want)
		}
	}
}

func TestPyRound(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{2.0 / 3, 0.6667},
		{0.5, 0.5},
		{0.00005, 0.0001}, // 0.00005 is just above the tie in binary
		{0.12345, 0.1235}, // 0.12345 is 0.123450000000000004174...
		{1.0 / 3, 0.3333},
	}
	for _, tt := range tests {
		if got := PyRound(tt.in, 4); got != tt.want {
			t.Errorf("PyRound(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
