package toolmatch

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// The canonical encoding of a value, which call keys are made of, is
// unambiguous and equal for values equal under the encoding's equality:
//
//	null            n
//	true, false     b1; b0;   (PythonEqual: d1; d0;, the numbers 1 and 0)
//	number          d<text>;  (see canon.number and appendExactNumber)
//	string          s<byte length>:<bytes>
//	array           [<elements>]
//	object          {<key string><value>...}  members sorted by key
//
// A JSONEqual and a PythonEqual encoding differ only in the tag of each
// boolean, so one is the other with those bytes changed. An exact
// encoding (exactEqual) differs from a JSONEqual one only in numbers
// other than integer literals of at most maxIntDigits digits.

// exactEqual is the equality of ExactArgsKey: JSONEqual with numbers
// compared by exact decimal value instead of as doubles.
const exactEqual = NameOnly + 1

// maxMarks is how many boolean tags canon records.
const maxMarks = 8

// maxIntDigits is the number of digits up to which an integral number's
// exact encoding is its decimal integer, as a JSONEqual one is for an
// integer literal.
const maxIntDigits = 32

// canon appends canonical encodings under eq.
type canon struct {
	eq Equality
	// marks are the offsets in b of the first nmarks boolean tags
	// written; nmarks counts them all.
	marks  [maxMarks]int
	nmarks int
	// inexact is set when a number was written whose exact encoding
	// differs from the one written.
	inexact bool
}

// reset prepares w for another value.
func (w *canon) reset(eq Equality) {
	w.eq, w.nmarks, w.inexact = eq, 0, false
}

// value appends the encoding of v to b.
func (w *canon) value(b []byte, v *Value) []byte {
	switch v.Kind {
	case Null:
		b = append(b, 'n')
	case Bool:
		if w.nmarks < maxMarks {
			w.marks[w.nmarks] = len(b)
		}
		w.nmarks++
		tag := byte('b')
		if w.eq == PythonEqual {
			tag = 'd'
		}
		if v.Bool {
			b = append(b, tag, '1', ';')
		} else {
			b = append(b, tag, '0', ';')
		}
	case Number:
		b = append(b, 'd')
		if w.eq == exactEqual {
			b = appendExactNumber(b, v.Text)
		} else {
			b = w.number(b, v.Text)
		}
		b = append(b, ';')
	case String:
		b = appendString(b, v.Text)
	case Array:
		b = append(b, '[')
		for i := range v.Elems {
			b = w.value(b, &v.Elems[i])
		}
		b = append(b, ']')
	default: // Object
		b = append(b, '{')
		ms := v.Members
		if len(ms) <= smallObject {
			var ord [smallObject]uint8
			for _, i := range sortSmall(ms, &ord) {
				b = appendString(b, ms[i].Key)
				// Strings, the most frequent values, without a call.
				if m := &ms[i].Value; m.Kind == String {
					b = appendString(b, m.Text)
				} else {
					b = w.value(b, m)
				}
			}
		} else {
			for _, i := range sortLarge(ms) {
				b = appendString(b, ms[i].Key)
				b = w.value(b, &ms[i].Value)
			}
		}
		b = append(b, '}')
	}
	return b
}

// number appends to b the JSONEqual (and PythonEqual) encoding of the number
// literal t, so that equal values give equal text as Python compares a
// json.loads int or float: an integer literal is an exact integer; any
// other literal is the double it rounds to (see appendFloatKey). It notes
// whether the exact encoding differs.
func (w *canon) number(b []byte, t string) []byte {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c == '.' || c == 'e' || c == 'E' {
			w.inexact = true
			return appendFloatKey(b, t)
		}
	}
	if t == "-0" {
		t = "0"
	}
	if n := len(t); n > maxIntDigits && (n > maxIntDigits+1 || t[0] != '-') {
		w.inexact = true
	}
	return append(b, t...)
}

// smallObject is the member count up to which objects are sorted on the
// stack.
const smallObject = 16

// sortSmall returns the positions of ms, at most smallObject members with
// distinct keys, in the order of their keys, stored in ord. Keys are
// told apart by their first bytes where these differ.
func sortSmall(ms []Member, ord *[smallObject]uint8) []uint8 {
	switch len(ms) {
	case 1:
		ord[0] = 0
		return ord[:1]
	case 2:
		if ms[1].Key < ms[0].Key {
			ord[0], ord[1] = 1, 0
		} else {
			ord[0], ord[1] = 0, 1
		}
		return ord[:2]
	}
	var first [smallObject]int16 // first byte, -1 for the empty key
	for i := range ms {
		first[i] = -1
		if k := ms[i].Key; k != "" {
			first[i] = int16(k[0])
		}
	}
	o := ord[:len(ms)]
	for i := range o {
		fi := first[i]
		j := i
		for ; j > 0; j-- {
			prev := o[j-1]
			if fp := first[prev]; fp != fi {
				if fp < fi {
					break
				}
			} else if ms[prev].Key < ms[i].Key {
				break
			}
			o[j] = prev
		}
		o[j] = uint8(i)
	}
	return o
}

// sortLarge returns the positions of ms in the order of their keys.
func sortLarge(ms []Member) []int {
	o := make([]int, len(ms))
	for i := range o {
		o[i] = i
	}
	slices.SortFunc(o, func(x, y int) int { return strings.Compare(ms[x].Key, ms[y].Key) })
	return o
}

// appendString appends the encoding of the string s: its byte length and
// its bytes.
func appendString(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 10:
		b = append(b, 's', byte('0'+n), ':')
	case n < 100:
		b = append(b, 's', byte('0'+n/10), byte('0'+n%10), ':')
	default:
		b = append(b, 's')
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ':')
	}
	return append(b, s...)
}

// appendFloatKey writes the double a literal that is not an integer
// literal rounds to: as an exact integer when integral (so 1.0 equals 1)
// and in shortest form otherwise. Overflowing floats are ±inf, as in
// Python.
func appendFloatKey(b []byte, t string) []byte {
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !math.IsInf(f, 0) {
		return append(append(b, 'r'), t...)
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

// appendExactNumber writes a JSON number literal so that equal decimal
// values give equal text: zero (-0 included) as "0"; an integer of at
// most maxIntDigits digits as its decimal digits (as canon.number
// writes an integer literal); any other value as sign, significant
// digits (no leading or trailing zeros), 'e' and the decimal exponent
// (value = digits × 10^exp). A literal whose exponent is beyond ±2^60 is
// written as 'r' and its text.
func appendExactNumber(b []byte, s string) []byte {
	raw := s
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	mant, expText := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			mant, expText = s[:i], s[i+1:]
			break
		}
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
	if n := int64(last - first + 1); exp10 >= 0 && n+exp10 <= maxIntDigits {
		for ; exp10 > 0; exp10-- {
			b = append(b, '0')
		}
		return b
	}
	b = append(b, 'e')
	return strconv.AppendInt(b, exp10, 10)
}
