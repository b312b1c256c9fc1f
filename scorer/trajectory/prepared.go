package trajectory

import (
	"strings"
	"sync"
)

// Prepared is a list of tool calls whose arguments are parsed once, for
// scoring the same calls with several metrics. Its keys are built on
// first use. It is safe for concurrent use; the slices it returns must
// not be modified.
type Prepared struct {
	// Calls are the calls as given.
	Calls []Call
	args  []preparedArgs
	mu    sync.Mutex // guards keys and f1
	keys  [NameOnly + 1][]string
	f1    []string
}

// preparedArgs is one call's arguments: the text trimmed of blanks and,
// unless it is empty, its parse.
type preparedArgs struct {
	text string
	v    Value
	err  error
}

// Prepare parses the arguments of every call.
func Prepare(calls []Call) *Prepared {
	p := &Prepared{Calls: calls, args: make([]preparedArgs, len(calls))}
	ps := parser{shared: true} // the calls' values share slabs
	for i := range calls {
		a := &p.args[i]
		a.text = strings.TrimSpace(calls[i].Args)
		if a.text != "" {
			a.v, a.err = ps.parse(a.text)
		}
	}
	return p
}

// PrepareOutput is Prepare of the calls of o, reusing the arguments the
// parse of o decoded.
func PrepareOutput(o *ToolCallOutput) *Prepared {
	calls := make([]Call, len(o.Calls))
	p := &Prepared{Calls: calls, args: make([]preparedArgs, len(calls))}
	for i := range o.Calls {
		c := &o.Calls[i]
		calls[i] = c.Call
		a := &p.args[i]
		a.text = strings.TrimSpace(c.Args)
		switch {
		case a.text == "":
		case c.args != nil:
			a.v = *c.args
		default:
			a.v, a.err = Parse(a.text)
		}
	}
	return p
}

// Len returns the number of calls.
func (p *Prepared) Len() int { return len(p.Calls) }

// Keys returns Keys(p.Calls, eq).
func (p *Prepared) Keys(eq Equality) []string {
	if eq > NameOnly {
		return Keys(p.Calls, eq)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.keysLocked(eq)
}

func (p *Prepared) keysLocked(eq Equality) []string {
	if p.keys[eq] == nil {
		keys := make([]string, len(p.Calls))
		var b []byte
		for i := range p.Calls {
			b = appendString(b[:0], p.Calls[i].Name)
			if eq != NameOnly {
				b = p.args[i].appendKey(b, eq)
			}
			keys[i] = string(b)
		}
		p.keys[eq] = keys
	}
	return p.keys[eq]
}

// appendKey is appendArgsKey of the parsed arguments.
func (a *preparedArgs) appendKey(b []byte, eq Equality) []byte {
	switch {
	case a.text == "":
		if eq == JSONEqual {
			return append(b, "{}"...)
		}
		return append(b, 'n')
	case a.err != nil:
		b = append(b, 'r')
		return append(b, a.text...)
	}
	return appendCanonical(b, &a.v, eq)
}

// f1Keys returns the keys ToolCallF1 puts in its sets: PythonEqual keys
// with empty arguments read as {}.
func (p *Prepared) f1Keys() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f1 == nil {
		py := p.keysLocked(PythonEqual)
		keys := make([]string, len(py))
		for i := range py {
			if p.args[i].text == "" {
				keys[i] = string(append(appendString(nil, p.Calls[i].Name), "{}"...))
			} else {
				keys[i] = py[i]
			}
		}
		p.f1 = keys
	}
	return p.f1
}

// Object returns ArgsObject(p.Calls[i].Args).
func (p *Prepared) Object(i int) (members []Member, ok bool) {
	a := &p.args[i]
	switch {
	case a.text == "":
		return nil, true
	case a.err != nil || a.v.Kind != Object:
		return nil, false
	}
	return a.v.Members, true
}

// ragasArgs returns decodeRagasArgs(p.Calls[i].Args).
func (p *Prepared) ragasArgs(i int) ragasArgs {
	m, ok := p.Object(i)
	return ragasArgs{members: m, raw: p.args[i].text, object: ok}
}
