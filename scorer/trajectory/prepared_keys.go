package trajectory

// Key sets of a Prepared, after the three Equality ones.
const (
	f1Keys     = NameOnly + 1 + iota // Prepared.f1Keys
	exactKeys                        // Prepared.ExactArgsKey
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
	w := canon{b: make([]byte, 0, size)}
	for i := range p.Calls {
		var sp keySpan
		a := &p.args[i]
		start := len(w.b)
		w.b = appendString(w.b, p.Calls[i].Name)
		nameEnd := len(w.b)
		sp[NameOnly] = [2]int{start, nameEnd}
		switch {
		case a.text == "":
			w.b = appendEmptyArgs(w.b, JSONEqual)
			sp[JSONEqual] = [2]int{start, len(w.b)}
			sp[PythonEqual] = w.copyName(start, nameEnd, PythonEqual)
		case a.err != nil:
			w.b = rawKey(w.b, a.text)
			sp[JSONEqual] = [2]int{start, len(w.b)}
			sp[PythonEqual] = sp[JSONEqual]
		default:
			w.reset(JSONEqual)
			w.value(&a.v)
			sp[JSONEqual] = [2]int{start, len(w.b)}
			sp[PythonEqual] = w.pythonKey(start, nameEnd, &a.v)
		}
		sp[f1Keys] = sp[PythonEqual]
		if a.text == "" {
			sp[f1Keys] = sp[JSONEqual]
		}
		switch {
		case !a.raw && !w.inexact:
			sp[exactKeys] = [2]int{nameEnd, sp[JSONEqual][1]}
		case !a.raw:
			at := len(w.b)
			w.reset(exactEqual)
			w.value(&a.v)
			sp[exactKeys] = [2]int{at, len(w.b)}
		case a.err != nil && len(a.text) == len(p.Calls[i].Args):
			sp[exactKeys] = [2]int{nameEnd, sp[JSONEqual][1]}
		default:
			at := len(w.b)
			w.b = rawKey(w.b, p.Calls[i].Args)
			sp[exactKeys] = [2]int{at, len(w.b)}
		}
		spans = append(spans, sp)
	}
	text := string(w.b)
	all := make([]string, int(numKeySets)*n)
	for k := range p.keys {
		keys := all[k*n : (k+1)*n : (k+1)*n]
		for i := range spans {
			keys[i] = text[spans[i][k][0]:spans[i][k][1]]
		}
		p.keys[k] = keys
	}
}

// copyName appends the name part of the key at b[start:nameEnd] and the
// key of empty arguments under eq, and returns where the key lies.
func (w *canon) copyName(start, nameEnd int, eq Equality) [2]int {
	at := len(w.b)
	w.b = append(w.b, w.b[start:nameEnd]...)
	w.b = appendEmptyArgs(w.b, eq)
	return [2]int{at, len(w.b)}
}

// pythonKey returns where the PythonEqual key lies of the call whose
// JSONEqual key, just written from v, starts at start: the same text
// when v holds no boolean, else a copy with the boolean tags changed (or
// a fresh encoding when there are more booleans than w recorded).
func (w *canon) pythonKey(start, nameEnd int, v *Value) [2]int {
	end := len(w.b)
	if w.nmarks == 0 {
		return [2]int{start, end}
	}
	at := len(w.b)
	if w.nmarks > maxMarks {
		w.b = append(w.b, w.b[start:nameEnd]...)
		inexact := w.inexact
		w.reset(PythonEqual)
		w.value(v)
		w.inexact = inexact
		return [2]int{at, len(w.b)}
	}
	w.b = append(w.b, w.b[start:end]...)
	for _, m := range w.marks[:w.nmarks] {
		w.b[at+m-start] = 'd'
	}
	return [2]int{at, len(w.b)}
}
