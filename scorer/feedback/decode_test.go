package feedback

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/evalsidecar/evalsidecar/internal/telemetry"
	"github.com/evalsidecar/evalsidecar/scorer"
)

var (
	traceID = pcommon.TraceID{0xaa, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	spanID  = pcommon.SpanID{0xbb, 1, 2, 3, 4, 5, 6, 7}
	at      = time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
)

// record adds a log record to ld named name, in traceID's context, with
// attrs set by set.
func record(ld plog.Logs, name string, tid pcommon.TraceID, set func(pcommon.Map)) {
	rl := ld.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", "annotator-ui")
	lr := rl.ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	lr.SetEventName(name)
	lr.SetTraceID(tid)
	lr.SetSpanID(spanID)
	lr.SetTimestamp(pcommon.NewTimestampFromTime(at))
	set(lr.Attributes())
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name   string
		tid    pcommon.TraceID
		event  string
		set    func(pcommon.Map)
		want   *scorer.Feedback
		reason string
	}{
		{name: "label with annotator and comment", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "coherence")
			m.PutStr(AttrLabel, "pass")
			m.PutStr(AttrAnnotator, "ann@example.com")
			m.PutStr(AttrExplanation, "reads well")
		}, want: &scorer.Feedback{Metric: "coherence", Label: "pass", Annotator: "ann@example.com", Explanation: "reads well"}},
		{name: "double value", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "helpfulness")
			m.PutDouble(AttrValue, 0.75)
		}, want: &scorer.Feedback{Metric: "helpfulness", Value: 0.75, HasValue: true}},
		{name: "int value and label", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "rating")
			m.PutInt(AttrValue, 4)
			m.PutStr(AttrLabel, "good")
		}, want: &scorer.Feedback{Metric: "rating", Value: 4, HasValue: true, Label: "good"}},
		{name: "event.name attribute", event: "-", set: func(m pcommon.Map) {
			m.PutStr("event.name", EventName)
			m.PutStr(AttrMetric, "thumbs")
			m.PutInt(AttrValue, 1)
		}, want: &scorer.Feedback{Metric: "thumbs", Value: 1, HasValue: true}},
		{name: "no trace id", tid: pcommon.NewTraceIDEmpty(), set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "coherence")
			m.PutStr(AttrLabel, "pass")
		}, reason: ReasonNoTraceID},
		{name: "no metric", set: func(m pcommon.Map) { m.PutStr(AttrLabel, "pass") }, reason: ReasonNoMetric},
		{name: "metric too long", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, strings.Repeat("m", 300))
			m.PutStr(AttrLabel, "pass")
		}, reason: ReasonInvalidMetric},
		{name: "no value nor label", set: func(m pcommon.Map) { m.PutStr(AttrMetric, "coherence") }, reason: ReasonNoValue},
		{name: "string value", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "coherence")
			m.PutStr(AttrValue, "0.5")
		}, reason: ReasonInvalidValue},
		{name: "NaN value", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "coherence")
			m.PutDouble(AttrValue, math.NaN())
		}, reason: ReasonInvalidValue},
		{name: "label not a string", set: func(m pcommon.Map) {
			m.PutStr(AttrMetric, "coherence")
			m.PutInt(AttrLabel, 1)
		}, reason: ReasonInvalidLabel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ld := plog.NewLogs()
			tid, event := traceID, EventName
			if tt.tid != tid && tt.reason == ReasonNoTraceID {
				tid = tt.tid
			}
			if tt.event != "" {
				event = ""
			}
			record(ld, event, tid, tt.set)
			record(ld, "gen_ai.evaluation.result", traceID, func(m pcommon.Map) { // the sidecar's own event: skipped
				m.PutStr(AttrMetric, "coherence")
				m.PutDouble(AttrValue, 1)
			})
			got, rejected := Decode(ld, time.Now())
			if tt.reason != "" {
				if len(got) != 0 || len(rejected) != 1 || rejected[0].Reason != tt.reason {
					t.Fatalf("got %+v rejected %+v, want one rejection %q", got, rejected, tt.reason)
				}
				return
			}
			if len(rejected) != 0 || len(got) != 1 {
				t.Fatalf("got %+v rejected %+v, want one record", got, rejected)
			}
			want := *tt.want
			want.Time, want.TraceID, want.SpanID, want.Service = at, traceID.String(), spanID.String(), "annotator-ui"
			if got[0] != want {
				t.Errorf("got %+v\nwant %+v", got[0], want)
			}
		})
	}
}

type sinkFunc func(*scorer.Evaluation) error

func (f sinkFunc) Export(_ context.Context, e *scorer.Evaluation) error { return f(e) }

func TestConsumerExportsAndCounts(t *testing.T) {
	reg := prometheus.NewRegistry()
	var got []scorer.Feedback
	c, err := New(telemetry.Settings{Registerer: reg}, sinkFunc(func(e *scorer.Evaluation) error {
		if e.Trajectory != nil || e.Session != nil || len(e.Results) != 0 {
			t.Errorf("feedback evaluation carries more than feedback: %+v", e)
		}
		got = append(got, e.Feedback...)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	ld := plog.NewLogs()
	record(ld, EventName, traceID, func(m pcommon.Map) { m.PutStr(AttrMetric, "a"); m.PutStr(AttrLabel, "pass") })
	record(ld, EventName, traceID, func(m pcommon.Map) { m.PutStr(AttrMetric, "b"); m.PutInt(AttrValue, 3) })
	record(ld, EventName, traceID, func(m pcommon.Map) { m.PutStr(AttrMetric, "c") })
	record(ld, EventName, pcommon.NewTraceIDEmpty(), func(m pcommon.Map) { m.PutStr(AttrMetric, "d"); m.PutInt(AttrValue, 3) })
	c.ConsumeLogs(context.Background(), ld)
	if len(got) != 2 || got[0].Metric != "a" || got[1].Metric != "b" {
		t.Fatalf("exported %+v", got)
	}
	if v := testutil.ToFloat64(c.received); v != 2 {
		t.Errorf("received = %v, want 2", v)
	}
	for reason, want := range map[string]float64{ReasonNoValue: 1, ReasonNoTraceID: 1, ReasonNoMetric: 0} {
		if v := testutil.ToFloat64(c.rejected.WithLabelValues(reason)); v != want {
			t.Errorf("rejected{reason=%s} = %v, want %v", reason, v, want)
		}
	}
}

// FuzzDecode feeds arbitrary OTLP log requests to the decoder: it must
// never panic, and every record it takes has a trace id, a metric and a
// finite value or a label.
func FuzzDecode(f *testing.F) {
	ld := plog.NewLogs()
	record(ld, EventName, traceID, func(m pcommon.Map) { m.PutStr(AttrMetric, "a"); m.PutDouble(AttrValue, 1) })
	seed, _ := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
	f.Add(seed)
	f.Fuzz(func(t *testing.T, b []byte) {
		ld, err := (&plog.ProtoUnmarshaler{}).UnmarshalLogs(b)
		if err != nil {
			return
		}
		got, _ := Decode(ld, at)
		for _, fb := range got {
			if fb.TraceID == "" || fb.Metric == "" || (!fb.HasValue && fb.Label == "") || math.IsNaN(fb.Value) {
				t.Fatalf("invalid feedback taken: %+v", fb)
			}
		}
	})
}
