package toolmatch

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Equality is a notion of when two tool calls are the same call.
type Equality uint8

// Equalities of the references.
const (
	// JSONEqual (Vertex AI trajectory metrics): names equal and arguments
	// equal as parsed JSON. Object key order is ignored, numbers compare
	// by value (1, 1.0 and 1e0 are equal), booleans are not numbers, and
	// empty arguments equal {} (Vertex always sends a tool_input object).
	JSONEqual Equality = iota
	// PythonEqual (Google ADK; Ragas ToolCallF1 after mapping empty
	// arguments to {}): names equal and arguments equal under Python's ==
	// on json.loads values: key order ignored, 1 == 1.0, True == 1 and
	// False == 0, "1" != 1. Empty arguments (or JSON null) are None, which
	// is not {}. Floats are compared as the doubles Python parses them to.
	PythonEqual
	// NameOnly compares names only (ADK's ignore_args).
	NameOnly
)

// ArgsKey gives the key of an argument text under one Equality: equal for
// two texts exactly when they are equal under it. A nil ArgsKey compares
// names only (NameOnly).
type ArgsKey func(args string) string

// emptyObjectKey is the key of an empty object under JSONEqual and
// PythonEqual (appendKey).
const emptyObjectKey = "{}"

// appendArgsKey appends to b the key of args, decoded by dec: bytes equal
// for two argument texts exactly when they are equal under eq, JSONEqual
// or PythonEqual. The text is trimmed of blanks; arguments that are not
// valid JSON give a key equal only to the same trimmed text.
func appendArgsKey(b []byte, args string, eq Equality, dec Decoder) []byte {
	t := strings.TrimSpace(args)
	switch {
	case t == "" && eq == JSONEqual:
		return append(b, emptyObjectKey...)
	case t == "":
		return append(b, 'n') // the key of null
	}
	v, err := dec(t)
	if err != nil {
		return append(append(b, 'r'), t...)
	}
	return appendKey(b, &v, appendPythonNumber, eq == PythonEqual)
}

// appendExactArgsKey appends to b the exact key of raw, decoded by dec:
// bytes equal for two argument texts exactly when they are equal as
// encoding/json decodes them with UseNumber: object key order is
// ignored, a repeated key keeps its last value, numbers compare by exact
// decimal value (1, 1.0 and 1e0 are equal, as are -0 and 0; integers
// beyond float64 precision stay distinct; a number whose exponent is
// beyond ±2^60 is compared by its literal text), and booleans are not
// numbers. Text that is not valid JSON, empty text included, gets
// a key equal only to the same raw text; blanks are not trimmed.
func appendExactArgsKey(b []byte, raw string, dec Decoder) []byte {
	v, err := dec(raw)
	if err != nil {
		return append(append(b, 'r'), raw...)
	}
	return appendKey(b, &v, appendExactNumber, false)
}

// appendKey appends an unambiguous encoding of v that is equal for equal
// values: null "n"; a boolean "b1;" or "b0;" (as the number 1 or 0, "d1;"
// or "d0;", when boolAsNumber); a number "d", number(literal) and ";"; a
// string its length-prefixed bytes (see appendString); an array its
// elements in "[...]"; an object its members, key then value, sorted by
// key, in "{...}" (Decode leaves each key once, with its last value, as
// encoding/json does).
func appendKey(b []byte, v *Value, number func(b []byte, lit string) []byte, boolAsNumber bool) []byte {
	switch v.Kind {
	case Bool:
		tag := byte('b')
		if boolAsNumber {
			tag = 'd'
		}
		if v.Bool {
			return append(b, tag, '1', ';')
		}
		return append(b, tag, '0', ';')
	case Number:
		b = number(append(b, 'd'), v.Text)
		return append(b, ';')
	case String:
		return appendString(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			b = appendKey(b, &v.Elems[i], number, boolAsNumber)
		}
		return append(b, ']')
	case Object:
		var small [8]*Member // room for the members of most objects
		sorted := small[:0]
		for i := range v.Members {
			sorted = append(sorted, &v.Members[i])
		}
		slices.SortFunc(sorted, func(x, y *Member) int { return cmp.Compare(x.Key, y.Key) })
		b = append(b, '{')
		for _, m := range sorted {
			b = appendString(b, m.Key)
			b = appendKey(b, &m.Value, number, boolAsNumber)
		}
		return append(b, '}')
	}
	return append(b, 'n')
}

// appendString appends the encoding of s: "s", its byte length, ':' and
// its bytes.
func appendString(b []byte, s string) []byte {
	b = append(b, 's')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// appendPythonNumber appends a text equal for two JSON number literals
// exactly when Python's json.loads values of them are equal (==): an
// integer literal is an exact int; any other literal is the float it
// rounds to, written as an exact integer when integral (so 1.0 equals 1)
// and in shortest form after an 'f' otherwise. Overflowing floats are
// ±inf, as in Python.
func appendPythonNumber(b []byte, lit string) []byte {
	if !strings.ContainsAny(lit, ".eE") {
		if lit == "-0" {
			return append(b, '0')
		}
		return append(b, lit...)
	}
	f, _ := strconv.ParseFloat(lit, 64) // ±Inf on overflow
	switch {
	case math.IsInf(f, 1):
		return append(b, "+inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case f == 0:
		return append(b, '0')
	case f == math.Trunc(f):
		return strconv.AppendFloat(b, f, 'f', 0, 64) // exact for integers
	}
	return strconv.AppendFloat(append(b, 'f'), f, 'g', -1, 64)
}

// maxExactExp bounds the exponents appendExactNumber handles numerically.
const maxExactExp = 1 << 60

// appendExactNumber appends a text equal for two JSON number literals
// exactly when their decimal values are equal: "0" for zero (-0
// included), else the sign, the significant digits (no leading or
// trailing zeros), 'e' and the decimal exponent, so that value = digits ×
// 10^exponent. A literal whose exponent is beyond ±2^60 is written as
// 'r' and its text.
func appendExactNumber(b []byte, lit string) []byte {
	s, neg := strings.CutPrefix(lit, "-")
	mant, exp := s, int64(0)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.ParseInt(s[i+1:], 10, 64)
		if err != nil || e > maxExactExp || e < -maxExactExp {
			return append(append(b, 'r'), lit...)
		}
		mant, exp = s[:i], e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	// The digits are whole then frac: value = whole.frac × 10^exp.
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		n := len(frac)
		frac = strings.TrimLeft(frac, "0")
		exp -= int64(n - len(frac))
	}
	exp -= int64(len(frac))
	if whole == "" && frac == "" {
		return append(b, '0')
	}
	if neg {
		b = append(b, '-')
	}
	start := len(b)
	b = append(append(b, whole...), frac...)
	for len(b) > start+1 && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
		exp++
	}
	return strconv.AppendInt(append(b, 'e'), exp, 10)
}
