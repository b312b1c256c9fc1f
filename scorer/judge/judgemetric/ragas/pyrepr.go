package ragas

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// pyArgs renders a tool call's JSON arguments as Python's str() of the
// decoded dict (ragas prints ToolCall.args that way): {'k': 'v', 'n': 1,
// 'f': 1.0, 'b': True, 'x': None}, keys in recorded order. Empty
// arguments are {}; arguments that are not JSON are shown as a Python
// string literal.
func pyArgs(raw string) string {
	t := strings.TrimSpace(raw)
	if t == "" {
		return "{}"
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var b strings.Builder
	if err := pyValue(dec, &b); err != nil {
		return pyStr(raw)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return pyStr(raw) // trailing content: not one JSON value
	}
	return b.String()
}

// pyValue writes the next JSON value of dec as a Python repr.
func pyValue(dec *json.Decoder, b *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		open, close := "{", "}"
		if v == '[' {
			open, close = "[", "]"
		} else if v != '{' {
			return fmt.Errorf("unexpected %v", v)
		}
		b.WriteString(open)
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			if v == '{' {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				ks, _ := k.(string)
				b.WriteString(pyStr(ks) + ": ")
			}
			if err := pyValue(dec, b); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		b.WriteString(close)
	case string:
		b.WriteString(pyStr(v))
	case json.Number:
		b.WriteString(pyNumber(string(v)))
	case bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case nil:
		b.WriteString("None")
	}
	return nil
}

// pyNumber renders a JSON number as Python's repr of what json.loads
// gives: an int for integer literals, else a float ("1.0", "1e-05").
func pyNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX, shortest
	mant, exps, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(exps)
	if exp >= -4 && exp < 16 {
		r := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsAny(r, ".") {
			r += ".0"
		}
		return r
	}
	sign := "+"
	if exp < 0 {
		sign, exp = "-", -exp
	}
	return fmt.Sprintf("%se%s%02d", mant, sign, exp)
}

// pyStr renders s as Python's repr of a str: single quotes unless s holds
// a single quote and no double quote; backslash, the quote, \n, \r and \t
// escaped; other non-printable characters as \xNN, \uNNNN or \UNNNNNNNN.
func pyStr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
