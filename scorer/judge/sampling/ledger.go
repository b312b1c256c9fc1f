package sampling

// Outcome is a Policy's verdict on one (trajectory, judge metric) pair.
// The values are label values (evalsidecar metrics, ClickHouse rows), the
// same as the ledger's outcomes of the same names.
type Outcome string

// Outcomes of Policy.Decide: whether a run is to be judged.
const (
	// OutcomeSampled: to be judged, chosen by the sampling rate.
	OutcomeSampled Outcome = "sampled"
	// OutcomeAlways: to be judged, chosen by an always-judge rule
	// (Decision.Rule names it).
	OutcomeAlways Outcome = "always"
	// OutcomeSampledOut: not judged, outside the sample and chosen by no
	// rule.
	OutcomeSampledOut Outcome = "sampled_out"
	// OutcomeFiltered: not judged, the metric's filter excludes the run.
	OutcomeFiltered Outcome = "filtered"
)

// ReasonRuleCapped is the ledger reason of a sampled_out run that an
// always-judge rule selected while the rule was over its max_per_minute.
const ReasonRuleCapped = "rule_capped"
