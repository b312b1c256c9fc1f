package extractor

import (
	"encoding/base64"
	"strings"

	"github.com/evalsidecar/evalsidecar/internal/truncate"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// batch is one request's records grouped by trace id, in order of first
// appearance. Building it copies everything the assembler keeps, so no
// pdata value is referenced afterwards.
type batch struct {
	groups []*group
	index  map[[16]byte]int
	last   *group // the group found last: spans of a trace come in runs
	bytes  int64
	// dropped counts records that could not be accepted, by reason.
	dropped map[string]int
}

// group is one trace's share of a request.
type group struct {
	id        [16]byte
	spans     []span
	logs      []logRec
	bytes     int64
	truncated bool

	// sizes counted before conversion, and the storage they size: a
	// trace's share of a request takes one allocation per record type,
	// owned by that trace alone.
	nSpans, nAttrs, nEvents int
	attrArena               attrs
	eventArena              []event
}

// reserve takes the group's storage for the counted records from pool
// (nil: allocated).
func (g *group) reserve(pool *arenaPool) {
	g.spans = pool.getSpans(g.nSpans)
	if g.nAttrs > 0 {
		g.attrArena = pool.getAttrs(g.nAttrs)
	}
	if g.nEvents > 0 {
		g.eventArena = make([]event, 0, g.nEvents)
	}
}

// take returns an empty slice with room for n elements, carved from the
// arena when it has room (the caller appends at most n), else allocated.
func take[T any](arena *[]T, n int) []T {
	if arena == nil || cap(*arena)-len(*arena) < n {
		return make([]T, 0, n)
	}
	l := len(*arena)
	*arena = (*arena)[:l+n]
	return (*arena)[l : l : l+n]
}

func newBatch() *batch {
	return &batch{index: make(map[[16]byte]int)}
}

func (b *batch) drop(reason string, n int) {
	if b.dropped == nil {
		b.dropped = make(map[string]int)
	}
	b.dropped[reason] += n
}

func (b *batch) group(id [16]byte) *group {
	if b.last != nil && b.last.id == id {
		return b.last
	}
	if i, ok := b.index[id]; ok {
		b.last = b.groups[i]
		return b.last
	}
	g := &group{id: id}
	b.bytes += traceOverhead // in case the trace is new to the buffer
	b.index[id] = len(b.groups)
	b.groups = append(b.groups, g)
	b.last = g
	return g
}

// converter copies pdata into compact records, truncating long values.
type converter struct {
	maxValue int
	runKeys  runKeys
	// pool supplies the span and attribute storage of trace shares; nil
	// allocates it.
	pool *arenaPool
}

// cutValue cuts s to at most max bytes on a UTF-8 boundary and reports
// whether it did.
func cutValue(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	return truncate.String(s, max), true
}

// value renders v as a string: strings as they are, maps and arrays as
// compact JSON, scalars in their usual text form. A JSON array (a message
// list) cut at max_attribute_value_bytes is closed again (closeJSON); a
// cut object (tool arguments) stays cut, and so invalid.
func (c converter) value(v pcommon.Value) (string, bool) {
	var s string
	switch v.Type() {
	case pcommon.ValueTypeStr:
		s = v.Str()
	case pcommon.ValueTypeSlice:
		var ok bool
		if s, ok = plainStringsJSON(v.Slice()); !ok {
			s = v.AsString()
		}
	default:
		s = v.AsString()
	}
	t, cut := cutValue(s, c.maxValue)
	if cut && isJSONArray(t) {
		t = closeJSON(t) // a cut message list still reads as messages
	}
	return t, cut
}

// plainStringsJSON renders a slice of plain strings (printable ASCII other
// than quote and backslash, which JSON leaves unescaped) as the compact JSON
// AsString produces, in one allocation. ok is false for any other slice.
func plainStringsJSON(sl pcommon.Slice) (string, bool) {
	n := 2
	for i := 0; i < sl.Len(); i++ {
		v := sl.At(i)
		if v.Type() != pcommon.ValueTypeStr {
			return "", false
		}
		s := v.Str()
		for j := 0; j < len(s); j++ {
			if b := s[j]; b < 0x20 || b >= 0x7f || b == '"' || b == '\\' {
				return "", false
			}
		}
		n += len(s) + 2
		if i > 0 {
			n++
		}
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('[')
	for i := 0; i < sl.Len(); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(sl.At(i).Str())
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.String(), true
}

// longestScalar bounds the text form of a bool, int or double value.
const longestScalar = 32

// cut reports whether value would truncate v, without rendering it when
// the answer is known from its type and length.
func (c converter) cut(v pcommon.Value) bool {
	switch v.Type() {
	case pcommon.ValueTypeEmpty:
		return false
	case pcommon.ValueTypeStr:
		return len(v.Str()) > c.maxValue
	case pcommon.ValueTypeBytes:
		return base64.StdEncoding.EncodedLen(v.Bytes().Len()) > c.maxValue
	case pcommon.ValueTypeBool, pcommon.ValueTypeInt, pcommon.ValueTypeDouble:
		if c.maxValue >= longestScalar {
			return false
		}
	}
	_, cut := c.value(v)
	return cut
}

// attrs copies the attributes of m: all of them, or for span attributes
// (spanKeys set) those the span policy (runKeys.keep) keeps. Attributes it
// rejects are not copied, but one that would have been truncated still
// marks the result truncated. For span attributes, genaiOnly reports that
// every copied key is one genaiOnlyKey accepts, and absent the keys of
// absentAll none of the copied ones is (for other attributes, absent is 0).
// For span attributes, oiValues keeps OpenInference's input.value and
// output.value (openinferenceValuesRead). The result is carved from arena
// when it has room; arena may be nil.
func (c converter) attrs(m pcommon.Map, spanKeys, oiValues bool, arena *attrs) (out attrs, truncated, genaiOnly bool, absent genaiAbsent) {
	if spanKeys {
		absent = absentAll
	}
	if m.Len() == 0 {
		return nil, false, true, absent
	}
	n := m.Len()
	if spanKeys && arena == nil {
		// without an arena, allocate only what is kept; an arena was sized
		// for every attribute, so n = m.Len() always fits it
		n = 0
		for k := range m.All() {
			if keep, _ := c.runKeys.keep(k); keep {
				n++
			}
		}
	}
	if n > 0 {
		out = take((*[]attr)(arena), n)
	}
	genaiOnly = true
	for k, v := range m.All() {
		if spanKeys {
			keep, genai := c.runKeys.keep(k)
			if !keep || !oiValues && (k == keyOIInput || k == keyOIOutput) {
				truncated = truncated || c.cut(v)
				continue
			}
			genaiOnly = genaiOnly && genai
			s, cut := c.value(v)
			truncated = truncated || cut
			ik, known := internedKey(k)
			// a well-known key is in absentAll only with the one value
			if genai && (!known || len(s) == len(strandsProvider)) {
				absent &^= genaiPresentKnown(ik, s, known)
			}
			out = append(out, attr{key: ik, value: s})
			continue
		}
		s, cut := c.value(v)
		truncated = truncated || cut
		out = append(out, attr{key: internKey(k), value: s})
	}
	return out, truncated, genaiOnly, absent
}

// span converts s, taking attribute and event storage from g's arenas
// when g is not nil.
func (c converter) span(s ptrace.Span, res *resource, scope string, g *group) (span, bool) {
	var attrArena *attrs
	var eventArena *[]event
	if g != nil {
		attrArena, eventArena = &g.attrArena, &g.eventArena
	}
	as, truncated, genaiOnly, absent := c.attrs(s.Attributes(), true, openinferenceValuesRead(s.Attributes(), s.ParentSpanID().IsEmpty()), attrArena)
	msg, cut := cutValue(s.Status().Message(), c.maxValue)
	truncated = truncated || cut
	rec := span{
		id:         s.SpanID(),
		parent:     s.ParentSpanID(),
		name:       s.Name(),
		scope:      scope,
		kind:       int8(s.Kind()),
		statusCode: int8(s.Status().Code()),
		statusMsg:  msg,
		start:      int64(s.StartTimestamp()),
		end:        int64(s.EndTimestamp()),
		attrs:      as,
		res:        res,
		genaiOnly:  genaiOnly,
		absent:     absent,
	}
	if n := s.Events().Len(); n > 0 {
		rec.events = take(eventArena, n)
		for _, e := range s.Events().All() {
			eas, cut, _, _ := c.attrs(e.Attributes(), false, false, attrArena)
			truncated = truncated || cut
			rec.events = append(rec.events, event{name: e.Name(), time: int64(e.Timestamp()), attrs: eas})
		}
	}
	return rec, truncated
}

// traces converts a traces request.
func (c converter) traces(td ptrace.Traces) *batch {
	b := newBatch()
	// count each trace's records first, so that each takes one allocation
	for _, rs := range td.ResourceSpans().All() {
		for _, ss := range rs.ScopeSpans().All() {
			for _, s := range ss.Spans().All() {
				tid := s.TraceID()
				if tid.IsEmpty() || s.SpanID().IsEmpty() {
					continue
				}
				g := b.group(tid)
				g.nSpans++
				g.nAttrs += s.Attributes().Len()
				evs := s.Events()
				g.nEvents += evs.Len()
				for _, e := range evs.All() {
					g.nAttrs += e.Attributes().Len()
				}
			}
		}
	}
	for _, g := range b.groups {
		g.reserve(c.pool)
	}
	for _, rs := range td.ResourceSpans().All() {
		ras, _, _, _ := c.attrs(rs.Resource().Attributes(), false, false, nil)
		res := &resource{attrs: ras}
		for _, ss := range rs.ScopeSpans().All() {
			scope := ss.Scope().Name()
			for _, s := range ss.Spans().All() {
				tid, sid := s.TraceID(), s.SpanID()
				if tid.IsEmpty() || sid.IsEmpty() {
					b.drop(reasonInvalidID, 1)
					continue
				}
				g := b.group(tid)
				rec, truncated := c.span(s, res, scope, g)
				g.spans = append(g.spans, rec)
				sz := rec.size()
				g.bytes += sz
				b.bytes += sz
				g.truncated = g.truncated || truncated
			}
		}
	}
	return b
}

// EventName returns the event name of a log record: the EventName field,
// else the event.name attribute.
func EventName(lr plog.LogRecord) string {
	if n := lr.EventName(); n != "" {
		return n
	}
	if v, ok := lr.Attributes().Get("event.name"); ok {
		return v.AsString()
	}
	return ""
}

// logs converts a logs request, keeping GenAI event records only.
func (c converter) logs(ld plog.Logs) *batch {
	b := newBatch()
	for _, rl := range ld.ResourceLogs().All() {
		for _, sl := range rl.ScopeLogs().All() {
			for _, lr := range sl.LogRecords().All() {
				name := EventName(lr)
				if !keepLog(name) {
					continue
				}
				tid := lr.TraceID()
				if tid.IsEmpty() {
					b.drop(reasonLogNoTraceID, 1)
					continue
				}
				as, truncated, _, _ := c.attrs(lr.Attributes(), false, false, nil)
				body, cut := c.value(lr.Body())
				ts := lr.Timestamp()
				if ts == 0 {
					ts = lr.ObservedTimestamp()
				}
				rec := logRec{spanID: lr.SpanID(), ev: event{name: name, time: int64(ts), attrs: as, body: body}}
				g := b.group(tid)
				g.logs = append(g.logs, rec)
				sz := rec.ev.size() + 8
				g.bytes += sz
				b.bytes += sz
				g.truncated = g.truncated || truncated || cut
			}
		}
	}
	return b
}
