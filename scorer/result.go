package scorer

import (
	"time"

	"github.com/evalsidecar/evalsidecar/agentrun"
)

// Result is one metric's score for one instance.
type Result struct {
	Metric      string
	Score       float64
	Label       string
	Explanation string
	Confidence  float64
	// Passed is the metric's pass rule applied to Score when it was
	// scored; nil when the metric has no pass rule.
	Passed *bool
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

// JudgeUsage describes the judge calls behind a Result, summed over every
// call the metric made.
type JudgeUsage struct {
	Judge        string // configured judge name that answered
	Provider     string // wire format: openai, gemini, anthropic
	Model        string
	InputTokens  int64
	OutputTokens int64
	CostUSD      float64       // estimate from the judge's configured prices
	Latency      time.Duration // summed over calls
	Calls        int           // judge calls made
	Attempts     int           // HTTP attempts, retries included
	// Cached marks a result reused from an identical earlier run: no call
	// was made for this run, so tokens, cost, latency, calls and attempts
	// are zero (the earlier run reported them).
	Cached bool
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
	Trajectory    *agentrun.Trajectory
	Results       []Result
	NotApplicable []string // metric ids that did not apply
	Errors        []MetricError
	// Decisions is the judge ledger: what happened to each judge metric
	// for this run (judged, sampled out, over budget, ...).
	Decisions []Decision
	// FollowUp marks an evaluation that adds judge results to a run
	// already exported: exporters write its scores and decisions but not
	// the trajectory again. Trajectory still identifies the run.
	FollowUp bool
	// Session, when set, makes this the evaluation of a closed
	// conversation rather than of one run: Trajectory is nil and the
	// results are session metrics keyed by Session.ID.
	Session *agentrun.Session
	// Feedback, when set, makes this a delivery of people's feedback
	// rather than an evaluation: Trajectory and Session are nil and there
	// are no results. Exporters that store records store it; the others
	// ignore it.
	Feedback []Feedback
}

// Result returns the result of the metric named metric, and whether e has
// one.
func (e *Evaluation) Result(metric string) (Result, bool) {
	for _, r := range e.Results {
		if r.Metric == metric {
			return r, true
		}
	}
	return Result{}, false
}

// Decision is one judge-ledger entry: what happened to one judge metric
// on one run, and why.
type Decision struct {
	Metric  string
	Judge   string
	Outcome string // one of the Outcome constants
	// Reason details the outcome: the judge error class, the budget limit,
	// the always-judge rule, or the missing inputs.
	Reason string
}

// Judge-ledger outcomes, the values of Decision.Outcome and of the reason
// label of evalsidecar_eval_skipped_total (for the outcomes that skip).
const (
	OutcomeScored        = "scored"
	OutcomeCached        = "cached"
	OutcomeQueued        = "queued"
	OutcomeSampledOut    = "sampled_out"
	OutcomeFiltered      = "filtered"
	OutcomeOverBudget    = "over_budget"
	OutcomeQueueFull     = "queue_full"
	OutcomeJudgeError    = "judge_error"
	OutcomeNotApplicable = "not_applicable"
	OutcomeShuttingDown  = "shutting_down"
)
