package feedback

import (
	"math"
	"time"

	"github.com/evalsidecar/evalsidecar/extractor"

	"github.com/evalsidecar/evalsidecar/internal/truncate"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// EventName names a feedback log record (its EventName, or its event.name
// attribute for senders whose SDK has no event name field).
const EventName = "evalsidecar.human_feedback"

// Attribute keys of a feedback record: the GenAI semantic conventions'
// evaluation attributes, and user.id for the annotator.
const (
	AttrMetric      = "gen_ai.evaluation.name"
	AttrValue       = "gen_ai.evaluation.score.value"
	AttrLabel       = "gen_ai.evaluation.score.label"
	AttrExplanation = "gen_ai.evaluation.explanation"
	AttrAnnotator   = "user.id"
)

// Reasons a feedback record is rejected, the reason label of
// evalsidecar_feedback_rejected_total.
const (
	ReasonNoTraceID     = "no_trace_id"
	ReasonNoMetric      = "no_metric"
	ReasonInvalidMetric = "invalid_metric"
	ReasonNoValue       = "no_value"
	ReasonInvalidValue  = "invalid_value"
	ReasonInvalidLabel  = "invalid_label"
)

// Size limits: a metric name or label longer than these is rejected
// (they are keys and label values); an explanation or annotator longer is
// cut.
const (
	maxMetricBytes = 256
	maxLabelBytes  = 256
	maxTextBytes   = 4096
)

// Rejected is a feedback record that could not be taken.
type Rejected struct {
	Reason  string
	TraceID string // hex, "" when the record has none
	Metric  string // as sent, cut to maxMetricBytes
}

// Decode returns the feedback records of ld and the feedback records it
// rejected; log records of other names are skipped. A record without a
// time is stamped now.
func Decode(ld plog.Logs, now time.Time) (out []scorer.Feedback, rejected []Rejected) {
	for _, rl := range ld.ResourceLogs().All() {
		service := ""
		if v, ok := rl.Resource().Attributes().Get("service.name"); ok {
			service = truncate.String(v.AsString(), maxTextBytes)
		}
		for _, sl := range rl.ScopeLogs().All() {
			for _, lr := range sl.LogRecords().All() {
				if extractor.EventName(lr) != EventName {
					continue
				}
				f, reason := decode(lr, now)
				if reason != "" {
					rejected = append(rejected, Rejected{Reason: reason, TraceID: f.TraceID, Metric: truncate.String(f.Metric, maxMetricBytes)})
					continue
				}
				f.Service = service
				out = append(out, f)
			}
		}
	}
	return out, rejected
}

// decode reads one feedback record; reason is "" when it is valid.
func decode(lr plog.LogRecord, now time.Time) (f scorer.Feedback, reason string) {
	attrs := lr.Attributes()
	if m, ok := attrs.Get(AttrMetric); ok {
		f.Metric = m.AsString()
	}
	if tid := lr.TraceID(); !tid.IsEmpty() {
		f.TraceID = tid.String()
	}
	switch {
	case f.TraceID == "":
		return f, ReasonNoTraceID
	case f.Metric == "":
		return f, ReasonNoMetric
	case len(f.Metric) > maxMetricBytes:
		return f, ReasonInvalidMetric
	}
	if sid := lr.SpanID(); !sid.IsEmpty() {
		f.SpanID = sid.String()
	}
	if v, ok := attrs.Get(AttrValue); ok {
		switch v.Type() {
		case pcommon.ValueTypeDouble:
			f.Value = v.Double()
		case pcommon.ValueTypeInt:
			f.Value = float64(v.Int())
		default:
			return f, ReasonInvalidValue
		}
		if math.IsNaN(f.Value) || math.IsInf(f.Value, 0) {
			return f, ReasonInvalidValue
		}
		f.HasValue = true
	}
	if v, ok := attrs.Get(AttrLabel); ok {
		if v.Type() != pcommon.ValueTypeStr || len(v.Str()) > maxLabelBytes {
			return f, ReasonInvalidLabel
		}
		f.Label = v.Str()
	}
	if !f.HasValue && f.Label == "" {
		return f, ReasonNoValue
	}
	if v, ok := attrs.Get(AttrExplanation); ok {
		f.Explanation = truncate.String(v.AsString(), maxTextBytes)
	}
	if v, ok := attrs.Get(AttrAnnotator); ok {
		f.Annotator = truncate.String(v.AsString(), maxTextBytes)
	}
	ts := lr.Timestamp()
	if ts == 0 {
		ts = lr.ObservedTimestamp()
	}
	f.Time = now
	if ts != 0 {
		f.Time = ts.AsTime()
	}
	return f, ""
}
