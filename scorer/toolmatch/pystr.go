package toolmatch

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PyStr returns Python's str() of the value json.loads would produce: a
// string is itself; ints print their digits; floats print Python's
// shortest repr ("1.0", "1e-05", "1e+16"); booleans "True"/"False"; null
// "None"; lists and dicts print the repr of their elements, dicts in
// document order ("{'k': 1}").
func PyStr(v *Value) string {
	if v.Kind == String {
		return v.Text
	}
	return string(appendPyRepr(nil, v))
}

// appendPyRepr writes Python's repr() of v.
func appendPyRepr(b []byte, v *Value) []byte {
	switch v.Kind {
	case Null:
		return append(b, "None"...)
	case Bool:
		if v.Bool {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case Number:
		return appendPyNumber(b, v)
	case String:
		return appendPyStrRepr(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyRepr(b, &v.Elems[i])
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i := range v.Members {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendPyStrRepr(b, v.Members[i].Key)
		b = append(b, ": "...)
		b = appendPyRepr(b, &v.Members[i].Value)
	}
	return append(b, '}')
}

// appendPyNumber writes an int literal as Python prints the int, and any
// other literal as Python prints the float it parses to.
func appendPyNumber(b []byte, v *Value) []byte {
	if v.isInt() {
		if v.Text == "-0" {
			return append(b, '0')
		}
		return append(b, v.Text...)
	}
	f, _ := strconv.ParseFloat(v.Text, 64) // ±Inf on overflow, as Python
	return appendPyFloat(b, f)
}

// appendPyFloat writes Python's repr() of a float: the shortest digits that
// round-trip, in fixed notation when the decimal exponent is in [-4, 16)
// (with ".0" when integral) and in exponent notation otherwise ("1e-05",
// "1.5e+16", as strconv writes it too).
func appendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX
	if x, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:]); x < -4 || x >= 16 {
		return append(b, e...)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'f', -1, 64)
	if bytes.IndexByte(b[start:], '.') < 0 {
		b = append(b, ".0"...)
	}
	return b
}

// appendPyStrRepr writes Python's repr() of a str: single quotes unless
// the text holds a single quote and no double quote; backslash, the quote,
// \t \n \r escaped; other control and non-printable characters as \xNN,
// \uNNNN or \UNNNNNNNN; printable non-ASCII kept.
func appendPyStrRepr(b []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	const hex = "0123456789abcdef"
	b = append(b, quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r < ' ' || r == 0x7f:
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		case r < 0x7f:
			b = append(b, byte(r))
		case unicode.IsPrint(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xff:
			b = append(b, '\\', 'x', hex[r>>4], hex[r&0xf])
		case r <= 0xffff:
			b = append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			b = append(b, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				b = append(b, hex[r>>uint(sh)&0xf])
			}
		}
	}
	return append(b, quote)
}
