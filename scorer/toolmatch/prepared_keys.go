package toolmatch

import "unsafe"

// Key sets of a Prepared, after the three Equality ones.
const (
	f1Keys    = NameOnly + 1 + iota // Prepared.f1Keys
	exactKeys                       // Prepared.ExactArgsKey
	numKeySets
)

// keySets returns p's key sets, built on first use.
func (p *Prepared) keySets() *[numKeySets][]string {
	p.keysOnce.Do(p.buildKeys)
	return &p.keys
}

// keySpan is where one call's keys lie in the text of all keys: one
// [start, end) pair per key set.
type keySpan [numKeySets][2]int

// smallList is the call count up to which work space is kept on the
// stack.
const smallList = 16

// buildKeys builds every key set at once, in one text whose parts they
// share. Per call it writes the name and the JSONEqual encoding of the
// arguments (the JSONEqual key, with the NameOnly key its prefix); the
// PythonEqual key is a copy with the boolean tags changed, or the same
// text when there are no booleans; the exact key is the argument part of
// the JSONEqual key unless a number's exact encoding differs; the F1 key
// is the JSONEqual key for empty arguments and the PythonEqual key
// otherwise.
func (p *Prepared) buildKeys() {
	n := len(p.Calls)
	var spanBuf [smallList]keySpan
	spans := spanBuf[:0]
	if n > smallList {
		spans = make([]keySpan, 0, n)
	}
	size := 0
	for i := range p.Calls {
		size += 2*(len(p.Calls[i].Name)+len(p.Calls[i].Args)) + 16
	}
	b := make([]byte, 0, size)
	var w canon
	for i := range p.Calls {
		var sp keySpan
		a := &p.args[i]
		start := len(b)
		b = appendString(b, p.Calls[i].Name)
		nameEnd := len(b)
		sp[NameOnly] = [2]int{start, nameEnd}
		switch {
		case a.text == "":
			b = appendEmptyArgs(b, JSONEqual)
			sp[JSONEqual] = [2]int{start, len(b)}
			at := len(b)
			b = append(b, b[start:nameEnd]...)
			b = appendEmptyArgs(b, PythonEqual)
			sp[PythonEqual] = [2]int{at, len(b)}
		case a.err != nil:
			b = rawKey(b, a.text)
			sp[JSONEqual] = [2]int{start, len(b)}
			sp[PythonEqual] = sp[JSONEqual]
		default:
			w.reset(JSONEqual)
			b = w.value(b, &a.v)
			sp[JSONEqual] = [2]int{start, len(b)}
			b, sp[PythonEqual] = w.pythonKey(b, start, nameEnd, &a.v)
		}
		sp[f1Keys] = sp[PythonEqual]
		if a.text == "" {
			sp[f1Keys] = sp[JSONEqual]
		}
		switch {
		case !a.raw && !w.inexact:
			sp[exactKeys] = [2]int{nameEnd, sp[JSONEqual][1]}
		case !a.raw:
			at := len(b)
			w.reset(exactEqual)
			b = w.value(b, &a.v)
			sp[exactKeys] = [2]int{at, len(b)}
		case a.err != nil && len(a.text) == len(p.Calls[i].Args):
			sp[exactKeys] = [2]int{nameEnd, sp[JSONEqual][1]}
		default:
			at := len(b)
			b = rawKey(b, p.Calls[i].Args)
			sp[exactKeys] = [2]int{at, len(b)}
		}
		spans = append(spans, sp)
	}
	text := freeze(b)
	all := make([]string, int(numKeySets)*n)
	for k := range p.keys {
		keys := all[k*n : (k+1)*n : (k+1)*n]
		for i := range spans {
			keys[i] = text[spans[i][k][0]:spans[i][k][1]]
		}
		p.keys[k] = keys
	}
}

// pythonKey returns b and where in it the PythonEqual key lies of the
// call whose JSONEqual key, just written from v, is b[start:]: the same
// text when v holds no boolean, else a copy with the boolean tags
// changed (or a fresh encoding when there are more booleans than w
// recorded).
func (w *canon) pythonKey(b []byte, start, nameEnd int, v *Value) ([]byte, [2]int) {
	end := len(b)
	if w.nmarks == 0 {
		return b, [2]int{start, end}
	}
	if w.nmarks > maxMarks {
		b = append(b, b[start:nameEnd]...)
		py := canon{eq: PythonEqual}
		b = py.value(b, v)
		return b, [2]int{end, len(b)}
	}
	b = append(b, b[start:end]...)
	for _, m := range w.marks[:w.nmarks] {
		b[end+m-start] = 'd'
	}
	return b, [2]int{end, len(b)}
}

// freeze returns the bytes of b as a string without copying them; b must
// not be written to afterwards.
func freeze(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
