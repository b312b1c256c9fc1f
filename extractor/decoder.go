package extractor

import "github.com/evalsidecar/evalsidecar/agentrun"

// spanClass is what a span is in an agent run.
type spanClass int8

const (
	classNone spanClass = iota // not a step of a run (or not GenAI)
	classRun                   // an agent invocation
	classLLM                   // a model call
	classTool                  // a tool execution
)

// spanFacts holds what the decoders read from one span, normalised. Empty
// fields are unknown.
type spanFacts struct {
	factFields

	// slots back the contents of factFields; used counts the slots taken. Only
	// slots[:used] are ever written.
	slots [4]content
	used  int8
}

// reset zeroes f, clearing only the content slots taken.
func (f *spanFacts) reset() {
	f.factFields = factFields{}
	clear(f.slots[:f.used])
	f.used = 0
}

// factFields are the fields of spanFacts other than its content storage.
type factFields struct {
	class spanClass
	// genai is set when any decoder recognised the span as GenAI telemetry.
	genai      bool
	convention string

	agent      string
	toolName   string
	toolCallID string
	args       string
	hasArgs    bool
	result     string
	errorType  string

	model, provider           string
	inputTokens, outputTokens int64
	finishReasons             []string
	session                   string

	// Message content, decoded lazily and at most once per trace.
	input, output, instructions, toolDefs *content
}

// newContent returns c stored in one of f's slots, or on the heap when
// they are taken.
func (f *spanFacts) newContent(c content) *content {
	if int(f.used) < len(f.slots) {
		p := &f.slots[f.used]
		f.used++
		*p = c
		return p
	}
	p := new(content)
	*p = c
	return p
}

// rawContent is newContent(content{kind: kind, raw: raw}) for the common
// GenAI forms. A free slot is zero, so only the two fields are written
// into it instead of a whole content value.
func (f *spanFacts) rawContent(kind contentKind, raw string) *content {
	if int(f.used) < len(f.slots) {
		p := &f.slots[f.used]
		f.used++
		p.kind, p.raw = kind, raw
		return p
	}
	return &content{kind: kind, raw: raw}
}

// decoder reads one instrumentation convention, named as set on
// Trajectory.Convention; each convention lives in one file (genai.go, ...).
// Decoders run in precedence order on every span and fill only the facts
// that are still empty, so a span carrying several conventions is read per
// attribute and merged: the first decoder to know a fact wins. The span's
// class is the first non-none class found. decode reads s (with its span
// events and joined log records in evs) into f and reports whether s
// carries the convention.
type decoder struct {
	name   string
	decode func(s *span, evs []*event, f *spanFacts) bool
}

// decoders are the decoders in precedence order. It is read-only.
var decoders = [...]decoder{
	{"genai", decodeGenAI},
	{"vercel-ai", decodeVercel}, {"vercel-ai", decodeVercelLegacy},
	{"openinference", decodeOpenInference}, {"openllmetry", decodeOpenLLMetry},
	{"adk", decodeADK}, {"strands", decodeStrands}, {"pydantic-ai", decodePydantic}, {"langsmith", decodeLangSmith},
}

// decodeSpan runs every decoder on s.
func decodeSpan(s *span, evs []*event, f *spanFacts) {
	for _, d := range &decoders {
		if d.decode(s, evs, f) {
			f.genai = true
			if f.convention == "" {
				f.convention = d.name
			}
		}
	}
}

// setClass sets the span's class unless a decoder before set it.
func (f *spanFacts) setClass(c spanClass) {
	if f.class == classNone {
		f.class = c
	}
}

// setArgs sets the tool call's arguments, unless set, to attribute value v
// (ok: present), a double-encoded value unwrapped.
func (f *spanFacts) setArgs(v string, ok bool) {
	if ok && !f.hasArgs {
		f.args, f.hasArgs = unwrapJSONString(v), true
	}
}

// parsedFrom sets *dst, when empty, to the messages in attribute key of a,
// decoded by parse (nil: the GenAI form).
func (f *spanFacts) parsedFrom(dst **content, a attrs, key string, parse func(raw, aux string) []message) {
	if v, ok := a.get(key); ok && *dst == nil {
		*dst = f.newContent(content{kind: contentMessages, raw: v, parse: parse})
	}
}

// flatFrom sets *dst, when empty, to the content of kind flattened under
// prefix in a (flat.go), and reports whether it did.
func (f *spanFacts) flatFrom(dst **content, kind contentKind, a attrs, prefix string) bool {
	if *dst != nil || !hasFlat(a, prefix) {
		return false
	}
	*dst = f.newContent(content{kind: kind, raw: prefix, attrs: a})
	return true
}

// setFinishReason sets a single finish reason, unless set.
func (f *spanFacts) setFinishReason(r string) {
	if f.finishReasons == nil && r != "" {
		f.finishReasons = []string{r}
	}
}

// setTokens sets the token counts that are still zero.
func (f *spanFacts) setTokens(in, out int64) {
	if f.inputTokens == 0 {
		f.inputTokens = in
	}
	if f.outputTokens == 0 {
		f.outputTokens = out
	}
}

// contentKind says how a content value is decoded.
type contentKind int8

const (
	contentMessages contentKind = iota
	contentInstructions
	contentToolDefs
)

// eventSide selects the messages an eventParse hook returns.
type eventSide int8

const (
	sideInput  eventSide = iota // every message event but the choices
	sideOutput                  // the choices
	sideSystem                  // the system messages
)

// content is message content of a span: either a JSON attribute value or a
// list of per-message events. It is decoded on first use, once.
type content struct {
	kind   contentKind
	raw    string
	events []*event
	output bool // events: take the output messages (gen_ai.choice)
	// eventParse decodes events in a convention's own format (Strands
	// content blocks); nil for the GenAI forms. It returns the messages of
	// one side: the input, the output, or the system messages.
	eventParse func(evs []*event, side eventSide) []message
	// orGenAI, for instructions read by eventParse, reads the events in
	// the GenAI form when eventParse finds no text.
	orGenAI bool
	// parse decodes raw and aux when the content is in a convention's own
	// format (Vercel ai.prompt, ADK llm_request, ...); nil for the GenAI
	// forms. For instructions, the system messages it returns are used.
	parse func(raw, aux string) []message
	aux   string
	// attrs holds the span attributes of content flattened into indexed
	// keys (OpenInference, OpenLLMetry legacy); raw is then the key prefix.
	attrs attrs
	// from, for instructions, is the content whose decoded messages hold
	// them as system messages: it is decoded once for both.
	from *content

	done         bool
	msgs         []message
	instructions string
	defs         []agentrun.ToolDefinition
}

func (c *content) decode() {
	if c == nil || c.done {
		return
	}
	c.done = true
	if c.from != nil {
		c.instructions = systemText(c.from.messages())
		return
	}
	if c.events != nil && c.eventParse != nil {
		switch {
		case c.kind == contentInstructions:
			c.instructions = systemText(c.eventParse(c.events, sideSystem))
			if c.instructions == "" && c.orGenAI {
				_, _, c.instructions = eventMessages(c.events)
			}
		case c.output:
			c.msgs = c.eventParse(c.events, sideOutput)
		default:
			c.msgs = c.eventParse(c.events, sideInput)
		}
		return
	}
	if c.events != nil {
		in, out, sys := eventMessages(c.events)
		switch {
		case c.kind == contentInstructions:
			c.instructions = sys
		case c.output:
			c.msgs = out
		default:
			c.msgs = in
		}
		return
	}
	if c.attrs != nil {
		c.decodeFlat()
		return
	}
	if c.parse != nil {
		msgs := c.parse(c.raw, c.aux)
		if c.kind == contentInstructions {
			c.instructions = systemText(msgs)
		} else {
			c.msgs = msgs
		}
		return
	}
	switch c.kind {
	case contentMessages:
		c.msgs, _ = parseMessages(c.raw)
	case contentInstructions:
		c.instructions = parseInstructions(c.raw)
	case contentToolDefs:
		c.defs = parseToolDefs(c.raw)
	}
}

// messages returns the decoded messages (nil for a nil content).
func (c *content) messages() []message {
	if c == nil {
		return nil
	}
	c.decode()
	return c.msgs
}

// text returns decoded instructions.
func (c *content) text() string {
	if c == nil {
		return ""
	}
	c.decode()
	return c.instructions
}

// tools returns decoded tool definitions.
func (c *content) tools() []agentrun.ToolDefinition {
	if c == nil {
		return nil
	}
	c.decode()
	return c.defs
}
