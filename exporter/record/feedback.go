package record

import "github.com/evalsidecar/evalsidecar/scorer"

// FeedbackRecord is a person's judgement of one run for one metric, as
// written to feedback.jsonl: keyed like a score by trace id and metric.
type FeedbackRecord struct {
	// Timestamp is when the person gave it (the log record's time).
	Timestamp Time   `json:"timestamp"`
	TraceID   string `json:"trace_id"`
	SpanID    string `json:"span_id"`
	// Service is the sender's service.name (often the annotation tool).
	Service string `json:"service"`
	Metric  string `json:"metric"`
	// Value is the numeric score, null when only a label was given.
	Value       *float64 `json:"value"`
	Label       string   `json:"label"`
	Explanation string   `json:"explanation"`
	Annotator   string   `json:"annotator"`
}

// Feedback converts f to its record.
func Feedback(f *scorer.Feedback) FeedbackRecord {
	r := FeedbackRecord{Timestamp: NewTime(f.Time), TraceID: f.TraceID, SpanID: f.SpanID, Service: f.Service,
		Metric: f.Metric, Label: f.Label, Explanation: f.Explanation, Annotator: f.Annotator}
	if f.HasValue {
		v := f.Value
		r.Value = &v
	}
	return r
}

// AppendJSON appends r as a JSON object, as encoding/json writes it
// without HTML escaping. Feedback is one line per person's judgement, so
// it is encoded by reflection.
func (r *FeedbackRecord) AppendJSON(b []byte) ([]byte, error) { return appendEncoded(b, r) }
