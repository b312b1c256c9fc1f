package toolmatch

import (
	"strings"
	"sync"
)

// Prepared is a list of tool calls whose arguments are parsed once, for
// scoring the same calls with several metrics. Its keys and the data
// Ragas' accuracy compares are built on first use. It is safe for
// concurrent use: several goroutines may score against one Prepared at
// once. The slices it returns must not be modified.
type Prepared struct {
	// Calls are the calls as given.
	Calls []Call
	args  []preparedArgs

	keysOnce sync.Once
	keys     [numKeySets][]string // see buildKeys

	ragasOnce sync.Once
	ragas     ragasData // see buildRagas
}

// preparedArgs is one call's arguments: the text trimmed of blanks and,
// unless it is empty, its parse.
type preparedArgs struct {
	text string
	v    Value
	err  error
	// raw is set when ExactArgsKey of the call's Args is its raw form:
	// the text is not valid JSON once only JSON whitespace is trimmed.
	raw bool
}

// Prepare parses the arguments of every call.
func Prepare(calls []Call) *Prepared {
	p := &Prepared{Calls: calls, args: make([]preparedArgs, len(calls))}
	var textBuf [smallList]string
	texts := textBuf[:0]
	if len(calls) > smallList {
		texts = make([]string, 0, len(calls))
	}
	for i := range calls {
		p.args[i].text = strings.TrimSpace(calls[i].Args)
		texts = append(texts, p.args[i].text)
	}
	var ps parser // the calls' values share slabs
	var sc scratch
	for i := range calls {
		a := &p.args[i]
		if a.text != "" {
			a.v, a.err = ps.parse(a.text, &sc, texts[i:])
		}
		a.setRaw(calls[i].Args)
	}
	return p
}

// setRaw sets a.raw for the call's arguments args.
func (a *preparedArgs) setRaw(args string) {
	a.raw = a.text == "" || a.err != nil || len(trimJSONSpace(args)) != len(a.text)
}

// trimJSONSpace returns s without leading and trailing JSON whitespace.
// As JSON whitespace is blank, strings.TrimSpace(s) is a sub-string of
// it, and the two are equal exactly when their lengths are.
func trimJSONSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isJSONSpace(s[i]) {
		i++
	}
	for j > i && isJSONSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
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
		a.setRaw(c.Args)
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
	return p.keySets()[eq]
}

// ExactArgsKey returns ExactArgsKey(p.Calls[i].Args), built from the
// arguments Prepare parsed: a key equal for two calls' arguments, of
// this or any other Prepared or given to ExactArgsKey, exactly when
// they are equal as encoding/json decodes them with UseNumber. Unlike
// the other keys it does not hold the name, and the arguments are not
// trimmed of blanks: text that is not valid JSON as it stands (empty
// or blank text included) is compared as raw text.
func (p *Prepared) ExactArgsKey(i int) string {
	return p.keySets()[exactKeys][i]
}

// f1Keys returns the keys ToolCallF1 puts in its sets: PythonEqual keys
// with empty arguments read as {}.
func (p *Prepared) f1Keys() []string {
	return p.keySets()[f1Keys]
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
