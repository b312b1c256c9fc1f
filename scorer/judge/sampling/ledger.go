package sampling

// Outcome is what happened to one (trajectory, judge metric) pair. The
// values are label values (evalsidecar metrics, ClickHouse rows): a fixed,
// small set.
type Outcome string

// Outcomes of Policy.Decide: whether a run is to be judged.
const (
	// OutcomeSampled: to be judged, chosen by the sampling rate.
	OutcomeSampled Outcome = "sampled"
	// OutcomeAlways: to be judged, chosen by an always-judge rule
	// (Decision.Rule names it).
	OutcomeAlways Outcome = "always"
	// OutcomeSampledOut: not judged, outside the sample and chosen by no
	// rule (also a final outcome).
	OutcomeSampledOut Outcome = "sampled_out"
	// OutcomeFiltered: not judged, the metric's filter excludes the run
	// (also a final outcome).
	OutcomeFiltered Outcome = "filtered"
)

// Final outcomes the ledger records for a run that was to be judged.
const (
	// OutcomeScored: the judge scored the run.
	OutcomeScored Outcome = "scored"
	// OutcomeCached: scored from the judge result cache, no judge call.
	OutcomeCached Outcome = "cached"
	// OutcomeOverBudget: a spend or token budget refused the judge call.
	OutcomeOverBudget Outcome = "over_budget"
	// OutcomeQueueFull: the judge queue had no room for the run.
	OutcomeQueueFull Outcome = "queue_full"
	// OutcomeJudgeError: the judge call failed; Entry.Reason holds the
	// failure class (a scorer/judge Class value such as "rate_limited").
	OutcomeJudgeError Outcome = "judge_error"
	// OutcomeNotApplicable: the metric lacks an input it needs, or is
	// undefined for the run.
	OutcomeNotApplicable Outcome = "not_applicable"
	// OutcomeShuttingDown: the sidecar stopped before the run was judged.
	OutcomeShuttingDown Outcome = "shutting_down"
)

// ReasonRuleCapped is Entry.Reason for a sampled_out run that an
// always-judge rule selected while the rule was over its max_per_minute
// (Entry.Rule names the rule).
const ReasonRuleCapped = "rule_capped"

// DecisionOutcomes lists the outcomes Policy.Decide returns.
func DecisionOutcomes() []Outcome {
	return []Outcome{OutcomeSampled, OutcomeAlways, OutcomeSampledOut, OutcomeFiltered}
}

// LedgerOutcomes lists the final outcomes, in a stable order, for example
// to initialise a counter's label values.
func LedgerOutcomes() []Outcome {
	return []Outcome{
		OutcomeScored, OutcomeCached, OutcomeSampledOut, OutcomeFiltered,
		OutcomeOverBudget, OutcomeQueueFull, OutcomeJudgeError,
		OutcomeNotApplicable, OutcomeShuttingDown,
	}
}

// Final reports whether o is a final outcome, one the ledger records.
// sampled and always are not: they say the run waits for its judge.
func (o Outcome) Final() bool {
	switch o {
	case OutcomeScored, OutcomeCached, OutcomeSampledOut, OutcomeFiltered,
		OutcomeOverBudget, OutcomeQueueFull, OutcomeJudgeError,
		OutcomeNotApplicable, OutcomeShuttingDown:
		return true
	}
	return false
}

// Entry is the ledger's record of one judge metric on one trajectory: the
// final outcome and why. It is plain data; the engine attaches one per
// judge metric to the run's evaluation.
type Entry struct {
	// Metric is the judge metric id.
	Metric string
	// Judge is the configured judge that answered (or was to answer); empty
	// when the run never reached a judge.
	Judge string
	// Outcome is a final outcome (see LedgerOutcomes).
	Outcome Outcome
	// Rule names the always-judge rule that selected the run; empty when
	// the sampling rate did, or nothing did.
	Rule string
	// Reason refines the outcome with a short label: the judge failure
	// class for judge_error, ReasonRuleCapped for a sampled_out run whose
	// rule was capped; otherwise empty.
	Reason string
}
