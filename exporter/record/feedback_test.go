package record

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/evalsidecar/evalsidecar/scorer"
)

func TestFeedbackRecord(t *testing.T) {
	at := time.Date(2026, 11, 27, 6, 0, 0, 123, time.UTC)
	label := Feedback(&scorer.Feedback{Time: at, TraceID: "aa", SpanID: "bb", Service: "ui", Metric: "coherence",
		Label: "pass", Explanation: "fine", Annotator: "ann"})
	if label.Value != nil {
		t.Errorf("a label-only record has value %v, want null", *label.Value)
	}
	scale := Feedback(&scorer.Feedback{Time: at, TraceID: "aa", Metric: "rating", Value: 4, HasValue: true})
	if scale.Value == nil || *scale.Value != 4 {
		t.Errorf("value = %v, want 4", scale.Value)
	}
	b, err := json.Marshal(label)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"timestamp", "trace_id", "span_id", "service", "metric", "value", "label", "explanation", "annotator"}
	if got := keyOrder(t, b); !reflect.DeepEqual(got, want) {
		t.Errorf("keys\n got %v\nwant %v", got, want)
	}
	for _, r := range []FeedbackRecord{label, scale} {
		checkSameAsEncodingJSON(t, &r)
	}
	for _, s := range oddTexts {
		for _, f := range oddFloats {
			r := FeedbackRecord{TraceID: s, Metric: s, Label: s, Explanation: s, Annotator: s, Value: &f}
			checkSameAsEncodingJSON(t, &r)
		}
	}
}
