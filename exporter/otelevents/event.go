package otelevents

import (
	"context"
	"slices"
	"time"

	"github.com/evalsidecar/evalsidecar/internal/truncate"

	"go.opentelemetry.io/otel/attribute"
	otellog "go.opentelemetry.io/otel/log"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// EventName is the event name of every record this exporter emits.
const EventName = "gen_ai.evaluation.result"

// event is one record to emit and the context that carries its run's
// span context.
type event struct {
	ctx    context.Context
	record otellog.Record
}

// selector decides which results and failures become events.
type selector struct {
	allMetrics    bool
	errors        bool
	explainMax    int
	deterministic []string // built-in deterministic metric ids
}

// events builds the records of one evaluation: one per selected result,
// then one per selected failure, all stamped with now and tied to the
// run's trace and root span.
//
// A session's results are all selected: each event carries
// gen_ai.conversation.id and is tied to the session's last turn.
func (s selector) events(e *scorer.Evaluation, now time.Time) []event {
	ctx := runContext(e.Trajectory)
	if ss := e.Session; ss != nil && len(ss.Turns) > 0 {
		last := ss.Turns[len(ss.Turns)-1]
		ctx = runContext(&agentrun.Trajectory{TraceID: last.TraceID, RootSpanID: last.SpanID})
	}
	var out []event
	for i := range e.Results {
		r := &e.Results[i]
		if r.Judge == nil && !s.allMetrics && e.Session == nil {
			continue
		}
		rec := s.resultRecord(r, now)
		if e.Session != nil {
			rec.AddAttributes(semconv.GenAIConversationID(e.Session.ID))
		}
		out = append(out, event{ctx: ctx, record: rec})
	}
	if !s.errors {
		return out
	}
	for _, me := range e.Errors {
		if !s.allMetrics && slices.Contains(s.deterministic, me.Metric) {
			continue
		}
		out = append(out, event{ctx: ctx, record: errorRecord(me, now)})
	}
	return out
}

// newRecord starts an evaluation event record.
func newRecord(now time.Time, sev otellog.Severity, metric string) otellog.Record {
	var rec otellog.Record
	rec.SetEventName(EventName)
	rec.SetTimestamp(now)
	rec.SetObservedTimestamp(now)
	rec.SetSeverity(sev)
	rec.SetSeverityText(sev.String())
	rec.AddAttributes(semconv.GenAIEvaluationName(metric))
	return rec
}

// Score labels of a result with a pass verdict.
const (
	LabelPass = "pass"
	LabelFail = "fail"
)

// MetricLabelKey carries the metric's own label when the pass verdict
// takes gen_ai.evaluation.score.label.
const MetricLabelKey = "evalsidecar.evaluation.metric_label"

// resultRecord describes a score: name, value, label (the pass verdict
// where the metric has a pass rule, else the metric's label when set),
// and the explanation cut to the configured length.
func (s selector) resultRecord(r *scorer.Result, now time.Time) otellog.Record {
	rec := newRecord(now, otellog.SeverityInfo, r.Metric)
	rec.AddAttributes(semconv.GenAIEvaluationScoreValue(r.Score))
	switch {
	case r.Passed != nil:
		label := LabelFail
		if *r.Passed {
			label = LabelPass
		}
		rec.AddAttributes(semconv.GenAIEvaluationScoreLabel(label))
		if r.Label != "" {
			rec.AddAttributes(attribute.String(MetricLabelKey, r.Label))
		}
	case r.Label != "":
		rec.AddAttributes(semconv.GenAIEvaluationScoreLabel(r.Label))
	}
	if ex := truncateUTF8(r.Explanation, s.explainMax); ex != "" {
		rec.AddAttributes(semconv.GenAIEvaluationExplanation(ex))
	}
	return rec
}

// errorRecord describes a metric that failed: its name and error.type
// (the failure reason: "error", "timeout", ...), without a score.
func errorRecord(me scorer.MetricError, now time.Time) otellog.Record {
	rec := newRecord(now, otellog.SeverityWarn, me.Metric)
	reason := me.Reason
	if reason == "" {
		reason = "_OTHER"
	}
	rec.AddAttributes(semconv.ErrorTypeKey.String(reason))
	return rec
}

// runContext returns a context carrying the run's trace id and root span
// id as a remote, sampled span context, so that the log SDK stamps them on
// the record. Without valid ids the context carries no span.
func runContext(t *agentrun.Trajectory) context.Context {
	ctx := context.Background()
	if t == nil {
		return ctx
	}
	tid, err := trace.TraceIDFromHex(t.TraceID)
	if err != nil {
		return ctx
	}
	cfg := trace.SpanContextConfig{TraceID: tid, TraceFlags: trace.FlagsSampled, Remote: true}
	if sid, err := trace.SpanIDFromHex(t.RootSpanID); err == nil {
		cfg.SpanID = sid
	}
	sc := trace.NewSpanContext(cfg)
	if !sc.HasTraceID() {
		return ctx
	}
	return trace.ContextWithSpanContext(ctx, sc)
}

// truncateUTF8 cuts s to at most max bytes without splitting a character.
func truncateUTF8(s string, max int) string { return truncate.String(s, max) }
