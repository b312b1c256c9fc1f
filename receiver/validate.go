package receiver

import (
	"cmp"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// rejections tallies items removed from a request, by reason.
type rejections struct {
	total    int
	byReason map[string]int
}

func (r *rejections) add(reason string) {
	if r.byReason == nil {
		r.byReason = make(map[string]int, 2)
	}
	r.byReason[reason]++
	r.total++
}

// message is the English partial-success message, e.g.
// "rejected 3 of 10 spans: invalid_trace_id=2, invalid_utf8=1".
func (r *rejections) message(of int, unit string) string {
	reasons := make([]string, 0, len(r.byReason))
	for k := range r.byReason {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	parts := make([]string, len(reasons))
	for i, k := range reasons {
		parts[i] = fmt.Sprintf("%s=%d", k, r.byReason[k])
	}
	return fmt.Sprintf("rejected %d of %d %s: %s", r.total, of, unit, strings.Join(parts, ", "))
}

// validator decides whether a span or log record may enter the pipeline.
type validator struct {
	maxDepth int
}

// stripTraces removes every invalid span from td (and any resource or scope
// left empty) and returns what was removed.
func (v validator) stripTraces(td ptrace.Traces) rejections {
	var rej rejections
	td.ResourceSpans().RemoveIf(func(rs ptrace.ResourceSpans) bool {
		resReason := v.checkResource(rs.Resource())
		rs.ScopeSpans().RemoveIf(func(ss ptrace.ScopeSpans) bool {
			return stripItems(&rej, ss.Spans(), cmp.Or(resReason, v.checkScope(ss.Scope())), v.checkSpan)
		})
		return rs.ScopeSpans().Len() == 0
	})
	return rej
}

// stripLogs removes every invalid log record from ld (and any resource or
// scope left empty) and returns what was removed.
func (v validator) stripLogs(ld plog.Logs) rejections {
	var rej rejections
	ld.ResourceLogs().RemoveIf(func(rl plog.ResourceLogs) bool {
		resReason := v.checkResource(rl.Resource())
		rl.ScopeLogs().RemoveIf(func(sl plog.ScopeLogs) bool {
			return stripItems(&rej, sl.LogRecords(), cmp.Or(resReason, v.checkScope(sl.Scope())), v.checkLogRecord)
		})
		return rl.ScopeLogs().Len() == 0
	})
	return rej
}

// stripItems removes from one scope's items those check rejects, or all of
// them for reason (their resource or scope was rejected), tallying each in
// rej, and reports whether none is left.
func stripItems[T any, L interface {
	RemoveIf(func(T) bool)
	Len() int
}](rej *rejections, items L, reason string, check func(T) string) bool {
	items.RemoveIf(func(it T) bool {
		r := cmp.Or(reason, check(it))
		if r != "" {
			rej.add(r)
		}
		return r != ""
	})
	return items.Len() == 0
}

func (v validator) checkResource(r pcommon.Resource) string {
	return v.checkMap(r.Attributes(), 1)
}

func (v validator) checkScope(s pcommon.InstrumentationScope) string {
	if !utf8.ValidString(s.Name()) || !utf8.ValidString(s.Version()) {
		return reasonInvalidUTF8
	}
	return v.checkMap(s.Attributes(), 1)
}

func (v validator) checkSpan(s ptrace.Span) string {
	if s.TraceID().IsEmpty() {
		return reasonInvalidTraceID
	}
	if s.SpanID().IsEmpty() {
		return reasonInvalidSpanID
	}
	if !utf8.ValidString(s.Name()) || !utf8.ValidString(s.Status().Message()) ||
		!utf8.ValidString(s.TraceState().AsRaw()) {
		return reasonInvalidUTF8
	}
	if reason := v.checkMap(s.Attributes(), 1); reason != "" {
		return reason
	}
	for _, e := range s.Events().All() {
		if !utf8.ValidString(e.Name()) {
			return reasonInvalidUTF8
		}
		if reason := v.checkMap(e.Attributes(), 1); reason != "" {
			return reason
		}
	}
	for _, l := range s.Links().All() {
		if !utf8.ValidString(l.TraceState().AsRaw()) {
			return reasonInvalidUTF8
		}
		if reason := v.checkMap(l.Attributes(), 1); reason != "" {
			return reason
		}
	}
	return ""
}

func (v validator) checkLogRecord(lr plog.LogRecord) string {
	if !utf8.ValidString(lr.SeverityText()) || !utf8.ValidString(lr.EventName()) {
		return reasonInvalidUTF8
	}
	if reason := v.checkValue(lr.Body(), 1); reason != "" {
		return reason
	}
	return v.checkMap(lr.Attributes(), 1)
}

// checkMap checks the values of an attribute map whose values sit at depth.
func (v validator) checkMap(m pcommon.Map, depth int) string {
	reason := ""
	m.Range(func(k string, val pcommon.Value) bool {
		if !utf8.ValidString(k) {
			reason = reasonInvalidUTF8
			return false
		}
		reason = v.checkValue(val, depth)
		return reason == ""
	})
	return reason
}

// checkValue checks one value at depth (a top-level attribute value has
// depth 1).
func (v validator) checkValue(val pcommon.Value, depth int) string {
	if depth > v.maxDepth {
		return reasonAttributeDepth
	}
	switch val.Type() {
	case pcommon.ValueTypeStr:
		if !utf8.ValidString(val.Str()) {
			return reasonInvalidUTF8
		}
	case pcommon.ValueTypeMap:
		return v.checkMap(val.Map(), depth+1)
	case pcommon.ValueTypeSlice:
		s := val.Slice()
		for i := 0; i < s.Len(); i++ {
			if reason := v.checkValue(s.At(i), depth+1); reason != "" {
				return reason
			}
		}
	}
	return ""
}
