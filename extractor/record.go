package extractor

import (
	"encoding/hex"
	"time"
)

// attr is one kept attribute, its value rendered as a string (maps and
// arrays as compact JSON).
type attr struct {
	key, value string
}

// attrs is a small attribute list; linear lookup beats a map at the sizes
// spans carry.
type attrs []attr

// get returns the value of key and whether it was present.
func (as attrs) get(key string) (string, bool) {
	for i := range as {
		if as[i].key == key {
			return as[i].value, true
		}
	}
	return "", false
}

// str returns the value of key, or "".
func (as attrs) str(key string) string {
	v, _ := as.get(key)
	return v
}

// event is a span event, or a log record joined to a span.
type event struct {
	name  string
	time  int64 // unix nanoseconds
	attrs attrs
	// body is the log record body (a map rendered as JSON); empty for span
	// events.
	body string
}

// resource is the resource of the spans of one ResourceSpans; spans of one
// request share it.
type resource struct {
	attrs attrs
}

// Status codes as OTLP defines them.
const (
	statusUnset int8 = 0
	statusOK    int8 = 1
	statusError int8 = 2
)

// span is the compact record of one span: only what decoders read.
type span struct {
	id, parent [8]byte
	name       string
	scope      string // instrumentation scope name
	kind       int8
	statusCode int8
	// genaiOnly is set by the converter when every kept attribute key is
	// in the gen_ai namespace or error.type (genaiOnlyKey): no other
	// convention's keys and no run attributes. Unset means not known, so
	// readers that use it to skip work still look at spans built otherwise.
	genaiOnly bool
	// absent is set by the converter: the conventions' gen_ai keys it
	// found none of. Zero means not known, as for genaiOnly.
	absent     genaiAbsent
	statusMsg  string
	start, end int64 // unix nanoseconds
	attrs      attrs
	events     []event
	res        *resource
}

func (s *span) hasParent() bool { return s.parent != [8]byte{} }

// logRec is a log record waiting to be joined to its span.
type logRec struct {
	spanID [8]byte
	ev     event
}

// Trace is the buffered record of one trace id: its spans and the GenAI log
// records that carry its trace id. An extraction turns it into trajectories.
type Trace struct {
	id    [16]byte
	spans []span
	logs  []logRec
	// arena is the attribute storage of the trace's first share, which
	// the trace owns; released traces give it and spans back for reuse.
	arena attrs
	// seen indexes the span ids once a trace has more than
	// seenLinearMax spans; below that a scan is cheaper.
	seen map[[8]byte]struct{}
	// source is the service.name of the resource that sent the trace's
	// first spans (fair eviction).
	source string
	// values indexes the trace's long values (shareMin) so that a value
	// repeated across its spans is kept once.
	values map[string]string

	created, lastAppend time.Time
	bytes               int64
	hasRoot             bool
	tooLarge            bool
	truncated           bool
	// run is set once a span or log record a convention reads arrived:
	// the trace is on the assembler's runs list, else on its fragments.
	run bool

	// prev and next link live traces in arrival order (oldest first).
	prev, next *Trace
}

// seenLinearMax is the span count up to which span ids are found by a
// linear scan.
const seenLinearMax = 32

// has reports whether a span with id is buffered.
func (t *Trace) has(id [8]byte) bool {
	if t.seen != nil {
		_, ok := t.seen[id]
		return ok
	}
	for i := range t.spans {
		if t.spans[i].id == id {
			return true
		}
	}
	return false
}

// noteSpan indexes the span just appended to t.spans, building the index
// when the trace outgrows the linear scan.
func (t *Trace) noteSpan() {
	switch {
	case t.seen != nil:
		t.seen[t.spans[len(t.spans)-1].id] = struct{}{}
	case len(t.spans) > seenLinearMax:
		t.seen = make(map[[8]byte]struct{}, 2*len(t.spans))
		for i := range t.spans {
			t.seen[t.spans[i].id] = struct{}{}
		}
	}
}

// TraceID returns the trace id as lower-case hex.
func (t *Trace) TraceID() string { return hex.EncodeToString(t.id[:]) }

// Spans returns the number of spans buffered.
func (t *Trace) Spans() int { return len(t.spans) }

// Per-record overheads used by the byte estimate: struct sizes rounded up,
// plus string and slice headers.
const (
	spanOverhead  = 200
	attrOverhead  = 32
	eventOverhead = 80
	traceOverhead = 300
)

func (as attrs) size() int64 {
	var n int64
	for _, a := range as {
		n += attrOverhead + int64(len(a.key)) + int64(len(a.value))
	}
	return n
}

func (e *event) size() int64 {
	return eventOverhead + int64(len(e.name)) + int64(len(e.body)) + e.attrs.size()
}

func (s *span) size() int64 {
	n := int64(spanOverhead) + int64(len(s.name)) + int64(len(s.statusMsg)) + s.attrs.size()
	for i := range s.events {
		n += s.events[i].size()
	}
	return n
}
