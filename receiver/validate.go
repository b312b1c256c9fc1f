package receiver

import (
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
			scopeReason := resReason
			if scopeReason == "" {
				scopeReason = v.checkScope(ss.Scope())
			}
			ss.Spans().RemoveIf(func(s ptrace.Span) bool {
				reason := scopeReason
				if reason == "" {
					reason = v.checkSpan(s)
				}
				if reason != "" {
					rej.add(reason)
					return true
				}
				return false
			})
			return ss.Spans().Len() == 0
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
			scopeReason := resReason
			if scopeReason == "" {
				scopeReason = v.checkScope(sl.Scope())
			}
			sl.LogRecords().RemoveIf(func(lr plog.LogRecord) bool {
				reason := scopeReason
				if reason == "" {
					reason = v.checkLogRecord(lr)
				}
				if reason != "" {
					rej.add(reason)
					return true
				}
				return false
			})
			return sl.LogRecords().Len() == 0
		})
		return rl.ScopeLogs().Len() == 0
	})
	return rej
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
	events := s.Events()
	for i := 0; i < events.Len(); i++ {
		e := events.At(i)
		if !utf8.ValidString(e.Name()) {
			return reasonInvalidUTF8
		}
		if reason := v.checkMap(e.Attributes(), 1); reason != "" {
			return reason
		}
	}
	links := s.Links()
	for i := 0; i < links.Len(); i++ {
		l := links.At(i)
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
