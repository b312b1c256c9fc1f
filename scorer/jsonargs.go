package scorer

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
)

// errTrailingData reports bytes after the top-level JSON value.
var errTrailingData = errors.New("invalid character after top-level value")

// parseJSON decodes s keeping numbers exact (json.Number), rejecting
// anything but whitespace after the value.
func parseJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if strings.TrimLeft(s[dec.InputOffset():], " \t\r\n") != "" {
		return nil, errTrailingData
	}
	return v, nil
}

// isJSONObject reports whether s is one valid JSON value that is an object.
func isJSONObject(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && json.Valid([]byte(t))
}

// argsKey returns a key that is equal for two argument texts exactly when
// they are equal as parsed JSON: object key order is ignored and numbers
// compare by value (1, 1.0 and 1e0 are equal). Text that is not valid JSON
// gets a key equal only to the same raw text.
func argsKey(raw string) string {
	v, err := parseJSON(raw)
	if err != nil {
		return "r" + raw
	}
	b := make([]byte, 0, len(raw)+8)
	b = append(b, 'j')
	return string(appendCanonical(b, v))
}

// appendCanonical writes an unambiguous canonical encoding of a value
// decoded by parseJSON: strings are length-prefixed, object keys sorted,
// numbers in canonical decimal form.
func appendCanonical(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case bool:
		if x {
			return append(b, 't')
		}
		return append(b, 'f')
	case json.Number:
		b = append(b, 'd')
		b = appendCanonNumber(b, string(x))
		return append(b, ';')
	case string:
		return appendCanonString(b, x)
	case []any:
		b = append(b, '[')
		for _, e := range x {
			b = appendCanonical(b, e)
		}
		return append(b, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for _, k := range keys {
			b = appendCanonString(b, k)
			b = appendCanonical(b, x[k])
		}
		return append(b, '}')
	}
	// parseJSON produces no other types.
	return append(b, '?')
}

// appendCanonString writes s length-prefixed.
func appendCanonString(b []byte, s string) []byte {
	b = append(b, 's')
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// maxCanonExp bounds exponents handled numerically; beyond it a number
// falls back to its raw text.
const maxCanonExp = 1 << 60

// appendCanonNumber writes a JSON number as sign, significant digits and a
// decimal exponent (value = digits × 10^exp) with no leading or trailing
// zeros in the digits, so equal values give equal text. Zero, including
// -0, is written "0".
func appendCanonNumber(b []byte, s string) []byte {
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
		if err != nil || e > maxCanonExp || e < -maxCanonExp {
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
