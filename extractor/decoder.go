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

// decoder reads one instrumentation convention. Each convention lives in
// one file (genai.go, ...). Decoders run in precedence order on every span
// and fill only the facts that are still empty, so a span carrying several
// conventions is read per attribute and merged: the first decoder to know a
// fact wins. The span's class is the first non-none class found.
type decoder interface {
	// name is the convention, as set on Trajectory.Convention.
	name() string
	// decode reads s (with its span events and joined log records in evs)
	// into f and reports whether s carries this convention.
	decode(s *span, evs []*event, f *spanFacts) bool
}

// decoders returns the decoders in precedence order.
func decoders() []decoder {
	return []decoder{
		genaiDecoder{},
		vercelDecoder{}, vercelLegacyDecoder{},
		openinferenceDecoder{}, openllmetryDecoder{},
		adkDecoder{}, strandsDecoder{}, pydanticDecoder{}, langsmithDecoder{},
	}
}

// decodeSpan runs every decoder on s.
func decodeSpan(ds []decoder, s *span, evs []*event, f *spanFacts) {
	for _, d := range ds {
		if d.decode(s, evs, f) {
			f.genai = true
			if f.convention == "" {
				f.convention = d.name()
			}
		}
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
