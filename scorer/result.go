package scorer

import (
	"time"

	"github.com/evalsidecar/evalsidecar/extractor"
)

// Result is one metric's score for one instance.
type Result struct {
	Metric      string
	Score       float64
	Label       string
	Explanation string
	Confidence  float64
	// Details holds metric-specific numbers (precision, recall, counts).
	Details  map[string]any
	Verdicts []Verdict
	Judge    *JudgeUsage // set when an LLM judge produced the score
}

// Verdict is one rubric's outcome in a rubric-based metric.
type Verdict struct {
	Rubric string
	Pass   bool
	Reason string
}

// JudgeUsage describes the judge call behind a Result.
type JudgeUsage struct {
	Provider     string
	Model        string
	InputTokens  int64
	OutputTokens int64
	Latency      time.Duration
}

// MetricError is a metric that failed on an instance.
type MetricError struct {
	Metric string
	Reason string // a short label value: "error", "timeout", "panic", "invalid_score"
	Err    error
}

// Evaluation is everything the engine learned about one run: the trajectory
// and the results of every configured metric.
type Evaluation struct {
	Trajectory    *extractor.Trajectory
	Results       []Result
	NotApplicable []string // metric ids that did not apply
	Errors        []MetricError
}
