package trajectory

import (
	"math"
	"math/big"
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

// Key returns a string equal for two calls exactly when they are equal
// under eq. Arguments that are not valid JSON give a key equal only to the
// same raw text (after trimming blanks).
func Key(c Call, eq Equality) string {
	b := make([]byte, 0, len(c.Name)+len(c.Args)+16)
	b = appendString(b, c.Name)
	if eq == NameOnly {
		return string(b)
	}
	return string(appendArgsKey(b, c.Args, eq))
}

// ArgsKey returns the argument part of Key: equal for two argument texts
// exactly when they are equal under eq.
func ArgsKey(args string, eq Equality) string {
	if eq == NameOnly {
		return ""
	}
	return string(appendArgsKey(nil, args, eq))
}

// Keys returns Key of every call.
func Keys(calls []Call, eq Equality) []string {
	keys := make([]string, len(calls))
	for i := range calls {
		keys[i] = Key(calls[i], eq)
	}
	return keys
}

// exactEqual is the equality of ExactArgsKey: JSONEqual with numbers
// compared by exact decimal value instead of as doubles.
const exactEqual = NameOnly + 1

// ExactArgsKey returns a key equal for two argument texts exactly when
// they are equal as encoding/json decodes them with UseNumber: object key
// order is ignored, a repeated key keeps its last value, numbers compare
// by exact decimal value (1, 1.0 and 1e0 are equal, as are -0 and 0;
// integers beyond float64 precision stay distinct; a number whose
// exponent is beyond ±2^60 is compared by its literal text), and booleans
// are not numbers. Text that is not valid JSON, empty text included, gets a key
// equal only to the same raw text; blanks are not trimmed.
func ExactArgsKey(raw string) string {
	v, err := Parse(raw)
	if err != nil {
		return "r" + raw
	}
	b := make([]byte, 0, len(raw)+8)
	b = append(b, 'j')
	return string(appendCanonical(b, &v, exactEqual))
}

func appendArgsKey(b []byte, args string, eq Equality) []byte {
	t := strings.TrimSpace(args)
	if t == "" {
		if eq == JSONEqual {
			return append(b, "{}"...)
		}
		return append(b, 'n')
	}
	v, err := Parse(t)
	if err != nil {
		b = append(b, 'r')
		return append(b, t...)
	}
	return appendCanonical(b, &v, eq)
}

// appendCanonical writes an unambiguous canonical encoding of v: strings
// length-prefixed, object members sorted by key, numbers by value.
func appendCanonical(b []byte, v *Value, eq Equality) []byte {
	switch v.Kind {
	case Null:
		return append(b, 'n')
	case Bool:
		if eq == PythonEqual {
			if v.Bool {
				return append(b, "d1;"...)
			}
			return append(b, "d0;"...)
		}
		if v.Bool {
			return append(b, 't')
		}
		return append(b, 'f')
	case Number:
		b = append(b, 'd')
		if eq == exactEqual {
			b = appendExactNumber(b, v.Text)
		} else {
			b = appendNumberKey(b, v)
		}
		return append(b, ';')
	case String:
		return appendString(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			b = appendCanonical(b, &v.Elems[i], eq)
		}
		return append(b, ']')
	}
	// Object
	order := make([]int, len(v.Members))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(v.Members[x].Key, v.Members[y].Key) })
	b = append(b, '{')
	for _, i := range order {
		b = appendString(b, v.Members[i].Key)
		b = appendCanonical(b, &v.Members[i].Value, eq)
	}
	return append(b, '}')
}

func appendString(b []byte, s string) []byte {
	b = append(b, 's')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// appendNumberKey writes a number so that equal values give equal text, as
// Python compares a json.loads int or float: an integer literal is an
// exact integer; any other literal is the double it rounds to, written as
// an exact integer when integral (so 1.0 equals 1) and in shortest form
// otherwise. Overflowing floats are ±inf, as in Python.
func appendNumberKey(b []byte, v *Value) []byte {
	if v.IsInt() {
		t := v.Text
		if t == "-0" {
			t = "0"
		}
		return append(b, t...)
	}
	f, err := strconv.ParseFloat(v.Text, 64)
	if err != nil && !math.IsInf(f, 0) {
		return append(append(b, 'r'), v.Text...)
	}
	switch {
	case math.IsInf(f, 1):
		return append(b, "+inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case f == math.Trunc(f):
		if math.Abs(f) < 1<<62 {
			return strconv.AppendInt(b, int64(f), 10)
		}
		i, _ := big.NewFloat(f).Int(nil)
		return i.Append(b, 10)
	}
	return append(append(b, 'f'), strconv.FormatFloat(f, 'g', -1, 64)...)
}

// maxExactExp bounds exponents handled numerically; beyond it a number
// is keyed by its literal text.
const maxExactExp = 1 << 60

// appendExactNumber writes a JSON number literal as sign, significant
// digits and a decimal exponent (value = digits × 10^exp) with no leading
// or trailing zeros in the digits, so equal values give equal text. Zero,
// including -0, is written "0".
func appendExactNumber(b []byte, s string) []byte {
	raw := s
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = s[1:]
	}
	mant, expText := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText = s[:i], s[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	var exp int64
	if expText != "" {
		e, err := strconv.ParseInt(expText, 10, 64)
		if err != nil || e > maxExactExp || e < -maxExactExp {
			return append(append(b, 'r'), raw...)
		}
		exp = e
	}
	digits := len(intPart) + len(frac)
	at := func(i int) byte {
		if i < len(intPart) {
			return intPart[i]
		}
		return frac[i-len(intPart)]
	}
	first, last := -1, -1
	for i := 0; i < digits; i++ {
		if at(i) != '0' {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return append(b, '0')
	}
	// value = digits[first..last] × 10^(exp - len(frac) + trailing zeros)
	exp10 := exp - int64(len(frac)) + int64(digits-1-last)
	if neg {
		b = append(b, '-')
	}
	for i := first; i <= last; i++ {
		b = append(b, at(i))
	}
	b = append(b, 'e')
	return strconv.AppendInt(b, exp10, 10)
}
