package scorer

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/evalsidecar/evalsidecar/internal/jsonobj"
	"sort"
	"strconv"
	"strings"
)

// errTrailingData reports bytes after the top-level JSON value.
var errTrailingData = errors.New("invalid character after top-level value")

// maxJSONDepth is the nesting limit, the same as encoding/json's.
const maxJSONDepth = 10000

// parseJSON decodes s as encoding/json would decode it into an `any` with
// UseNumber: objects as map[string]any, arrays as []any, numbers as
// json.Number. It accepts exactly what json.Valid accepts. Strings without
// escapes are sub-strings of s, so decoding allocates little.
func parseJSON(s string) (any, error) {
	p := jsonParser{s: s}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, errTrailingData
	}
	return v, nil
}

// jsonParser is a recursive-descent JSON decoder over a string.
type jsonParser struct {
	s string
	i int
}

// syntaxError reports a malformed document at the current offset.
func (p *jsonParser) syntaxError(what string) error {
	return fmt.Errorf("invalid JSON at offset %d: %s", p.i, what)
}

func (p *jsonParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value decodes one value; the parser is at its first byte.
func (p *jsonParser) value(depth int) (any, error) {
	if p.i >= len(p.s) {
		return nil, p.syntaxError("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return true, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return false, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return nil, nil
	}
	return nil, p.syntaxError("unexpected character")
}

func (p *jsonParser) object(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.syntaxError("nested too deeply")
	}
	p.i++ // {
	m := make(map[string]any)
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.syntaxError("expected object key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.syntaxError("expected ':'")
		}
		p.i++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.skipSpace()
		if p.i >= len(p.s) {
			return nil, p.syntaxError("unexpected end of object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.skipSpace()
		case '}':
			p.i++
			return m, nil
		default:
			return nil, p.syntaxError("expected ',' or '}'")
		}
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.syntaxError("nested too deeply")
	}
	p.i++ // [
	a := []any{}
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.skipSpace()
		if p.i >= len(p.s) {
			return nil, p.syntaxError("unexpected end of array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.skipSpace()
		case ']':
			p.i++
			return a, nil
		default:
			return nil, p.syntaxError("expected ',' or ']'")
		}
	}
}

// str decodes a string. Plain ASCII strings are returned as sub-strings;
// others are unquoted by encoding/json for identical escape, surrogate and
// invalid-UTF-8 handling.
func (p *jsonParser) str() (string, error) {
	start := p.i
	p.i++ // opening quote
	plain := true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			if plain {
				return p.s[start+1 : p.i-1], nil
			}
			var out string
			if err := json.Unmarshal([]byte(p.s[start:p.i]), &out); err != nil {
				return "", p.syntaxError(err.Error())
			}
			return out, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", p.syntaxError("control character in string")
		case c >= 0x80:
			plain = false
			p.i++
		default:
			p.i++
		}
	}
	return "", p.syntaxError("unterminated string")
}

// number scans -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (p *jsonParser) number() (any, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && p.s[p.i] >= '1' && p.s[p.i] <= '9':
		p.digits()
	default:
		return nil, p.syntaxError("invalid number")
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return nil, p.syntaxError("invalid number")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return nil, p.syntaxError("invalid number")
		}
	}
	return json.Number(p.s[start:p.i]), nil
}

// digits skips a run of decimal digits and returns its length.
func (p *jsonParser) digits() int {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i - start
}

// isJSONObject reports whether s is one valid JSON object.
func isJSONObject(s string) bool { return jsonobj.Valid(s) }

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
