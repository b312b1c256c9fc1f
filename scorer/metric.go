package scorer

import (
	"context"
	"errors"
)

// Metric scores one Instance. Implementations must be safe for concurrent
// use and must never return NaN or ±Inf: a metric that cannot score returns
// an error.
type Metric interface {
	// Name is the public metric id, e.g. "tool_error_rate".
	Name() string
	// Needs lists the Instance fields that must be present; when any is
	// missing the engine records the metric as not applicable and does not
	// call Score.
	Needs() Inputs
	// Score computes the result. It returns ErrNotApplicable when the
	// inputs are present but the metric is undefined for them (for example
	// a rate over zero tool calls).
	Score(ctx context.Context, in *Instance) (Result, error)
}

// ErrNotApplicable reports that a metric is undefined for an instance. It
// is counted, never scored as 0.
var ErrNotApplicable = errors.New("metric not applicable")

// Judged is a Metric that calls an LLM judge. The engine runs judged
// metrics in its judge stage (sampled, budgeted, cached and off the
// ingestion path) instead of inline with the deterministic metrics.
type Judged interface {
	Metric
	// JudgeName is the configured judge the metric calls.
	JudgeName() string
}

// DialogueJudged is a judge metric that reads a whole dialogue when it is
// given one (Instance.Transcript: every turn's messages, the tool calls
// and their results), though it needs none: a closed session is offered
// to it as to the metrics that need a conversation.
type DialogueJudged interface {
	Judged
	// JudgesDialogue marks the metric.
	JudgesDialogue()
}

// JudgesDialogue reports whether m, or the metric it was configured from,
// is a DialogueJudged.
func JudgesDialogue(m Metric) bool {
	for {
		if _, ok := m.(DialogueJudged); ok {
			return true
		}
		u, ok := m.(interface{ Unwrap() Metric })
		if !ok {
			return false
		}
		m = u.Unwrap()
	}
}

// NotApplicableError is ErrNotApplicable with the reason the judge
// ledger records (a fixed word such as "no_baseline", never run content).
type NotApplicableError struct{ Reason string }

func (e *NotApplicableError) Error() string { return "metric not applicable: " + e.Reason }

// Is makes errors.Is(err, ErrNotApplicable) hold.
func (e *NotApplicableError) Is(target error) bool { return target == ErrNotApplicable }

// Precondition is a judged metric that compares a run with data found when
// it is judged (a pairwise metric's baseline run). The judge stage calls
// Applicable before sampling, so a run the metric cannot compare is not
// applicable, with the returned *NotApplicableError's reason, and takes no
// judge queue slot; and it does not cache the metric's results, since the
// same run may be compared with newer data later.
type Precondition interface {
	Applicable(in *Instance) error
}

// Func returns an Inline metric named id that needs need and scores with
// score, which must not block; its results carry id.
func Func(id string, need Inputs, score func(in *Instance) (Result, error)) Metric {
	return funcMetric{id: id, need: need, score: score}
}

// funcMetric is the metric Func returns.
type funcMetric struct {
	id    string
	need  Inputs
	score func(*Instance) (Result, error)
}

func (m funcMetric) Name() string  { return m.id }
func (m funcMetric) Needs() Inputs { return m.need }
func (funcMetric) Inline()         {}

func (m funcMetric) Score(_ context.Context, in *Instance) (Result, error) {
	r, err := m.score(in)
	r.Metric = m.id
	return r, err
}

// DescribedFunc is Func for a metric that declares its own semantics
// (Described).
func DescribedFunc(id string, need Inputs, sem Semantics, score func(in *Instance) (Result, error)) Metric {
	return describedFunc{funcMetric{id: id, need: need, score: score}, sem}
}

// describedFunc is the metric DescribedFunc returns.
type describedFunc struct {
	funcMetric
	sem Semantics
}

func (m describedFunc) Semantics() Semantics { return m.sem }
