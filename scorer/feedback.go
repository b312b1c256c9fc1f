package scorer

import "time"

// Feedback is a person's judgement of one run for one metric: a label
// from an annotation tool, a thumbs-up, a 1-5 rating. It reaches the
// sidecar as an OTel log event (see the feedback package) and is stored
// beside the judge's scores, keyed like them by trace id and metric.
type Feedback struct {
	// Time is when the person gave the feedback (the record's time).
	Time    time.Time
	TraceID string // lower-case hex, the run's trace
	SpanID  string // lower-case hex, "" when the record names no span
	Service string // service.name of the sender's resource, often the tool's
	Metric  string
	// Value is the numeric score when HasValue; Label the label, "" when
	// none was given. At least one of the two is set.
	Value    float64
	HasValue bool
	Label    string
	// Explanation is the person's comment, Annotator who gave it; both
	// may be empty.
	Explanation string
	Annotator   string
}

// Human is the value agreement compares with a judge's score: the number
// when one was given, else the label.
func (f *Feedback) Human() any {
	if f.HasValue {
		return f.Value
	}
	return f.Label
}
