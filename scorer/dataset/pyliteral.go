package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyLiteral converts a Python literal as pandas writes a list or dict
// cell to CSV (str() of the value: 'single quotes', True, False, None,
// nan, tuples) into JSON: strings, numbers, true/false/null, arrays and
// objects. It accepts only literals; anything else is an error.
func pyLiteral(s string) (json.RawMessage, error) {
	p := &pyParser{s: s}
	var b strings.Builder
	if err := p.value(&b, 0); err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at offset %d", p.s[p.i], p.i)
	}
	return json.RawMessage(b.String()), nil
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) value(b *strings.Builder, depth int) error {
	if depth > maxDepth {
		return errors.New("nested too deeply")
	}
	p.space()
	if p.i >= len(p.s) {
		return errors.New("unexpected end")
	}
	switch p.s[p.i] {
	case '[':
		return p.seq(b, ']', depth, false)
	case '(':
		return p.seq(b, ')', depth, false)
	case '{':
		return p.seq(b, '}', depth, true)
	case '\'', '"':
		s, err := p.str()
		if err != nil {
			return err
		}
		q, _ := json.Marshal(s)
		b.Write(q)
		return nil
	}
	start := p.i
	for p.i < len(p.s) && strings.IndexByte(",:]})", p.s[p.i]) < 0 && p.s[p.i] != ' ' {
		p.i++
	}
	switch word := p.s[start:p.i]; word {
	case "True":
		b.WriteString("true")
	case "False":
		b.WriteString("false")
	case "None", "nan", "NaN":
		b.WriteString("null")
	default:
		f, err := strconv.ParseFloat(word, 64)
		if err != nil {
			return fmt.Errorf("unexpected %q", word)
		}
		n, _ := json.Marshal(f)
		if !strings.ContainsAny(word, ".eE") {
			n = []byte(word) // an int keeps its digits
		}
		b.Write(n)
	}
	return nil
}

// seq reads a list, tuple or dict up to closing.
func (p *pyParser) seq(b *strings.Builder, closing byte, depth int, dict bool) error {
	p.i++
	open, end := "[", "]"
	if dict {
		open, end = "{", "}"
	}
	b.WriteString(open)
	for n := 0; ; n++ {
		p.space()
		if p.i < len(p.s) && p.s[p.i] == closing {
			p.i++
			b.WriteString(end)
			return nil
		}
		if n > 0 {
			if p.i >= len(p.s) || p.s[p.i] != ',' {
				return errors.New("expected ','")
			}
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == closing { // trailing comma
				continue
			}
			b.WriteByte(',')
		}
		if dict {
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != '\'' && p.s[p.i] != '"' {
				return errors.New("a dict key must be a string")
			}
			k, err := p.str()
			if err != nil {
				return err
			}
			q, _ := json.Marshal(k)
			b.Write(q)
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return errors.New("expected ':'")
			}
			p.i++
			b.WriteByte(':')
		}
		if err := p.value(b, depth+1); err != nil {
			return err
		}
	}
}

// str reads a quoted Python string with its escapes.
func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			p.i++
			e := p.s[p.i]
			p.i++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return "", errors.New("short escape")
				}
				v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || !utf8.ValidRune(rune(v)) {
					return "", errors.New("bad escape")
				}
				b.WriteRune(rune(v))
				p.i += n
			default:
				b.WriteByte(e) // \\ \' \"
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", errors.New("unterminated string")
}
