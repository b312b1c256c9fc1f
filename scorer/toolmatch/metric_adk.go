package toolmatch

import (
	"context"
	"fmt"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
)

// MetricToolTrajectoryAvgScore is the id of Google ADK's tool trajectory
// criterion.
const MetricToolTrajectoryAvgScore = "tool_trajectory_avg_score"

// Parameters of tool_trajectory_avg_score, with their defaults.
const (
	// ParamMatchType is EXACT (default), IN_ORDER or ANY_ORDER,
	// case-insensitive, '-' or ' ' for '_'; ADK's enum values 0, 1, 2 are
	// accepted too.
	ParamMatchType = "match_type"
	// ParamThreshold is the pass mark; ADK's default is 1.0.
	ParamThreshold             = "threshold"
	defaultTrajectoryThreshold = 1.0
	// ParamIgnoreArgs compares tool names only (default false).
	ParamIgnoreArgs = "ignore_args"
)

// adkToolTrajectory is Google ADK's tool_trajectory_avg_score
// (trajectory_evaluator.py), exact to its source.
//
// Per invocation the actual tool calls are compared with the expected
// ones and score 1 or 0:
//   - EXACT: same length and pairwise equal in order (empty vs empty: 1);
//   - IN_ORDER: the expected calls are a subsequence of the actual ones
//     (greedy walk; empty expected: 1);
//   - ANY_ORDER: each expected call removes one equal actual call, in any
//     order (multiset containment; empty expected: 1).
//
// Calls are equal when the names are equal and, unless ignore_args, the
// arguments are equal under Python's == on json.loads values: key order
// ignored, list order significant, 1 == 1.0, True == 1, "1" != 1, and
// missing arguments (None: empty text or null) != {}. The score is the
// mean over invocations; Label is "passed" when score >= threshold, else
// "failed".
//
// Invocations are Instance.Invocations that have a reference
// (HasReference); when the instance has no invocations, the whole run is
// one invocation comparing PredictedTrajectory with ReferenceTrajectory
// (needs InReferenceTrajectory). With no invocation to score the metric is
// not applicable (ADK: NOT_EVALUATED). Needs() is therefore empty and the
// check is in Score.
//
// Where the references disagree: ADK EXACT on two empty lists is 1 (Ragas
// accuracy agrees, Ragas F1 gives 0); ADK compares arguments all or
// nothing, where Ragas accuracy gives partial credit; Python's True == 1
// makes {"a": true} equal {"a": 1} here but not in the Vertex metrics.
// Details: "per_invocation" (scores in order), "match_type", "threshold".
type adkToolTrajectory struct {
	match      MatchType
	ignoreArgs bool
	threshold  float64
}

// newADKToolTrajectory builds tool_trajectory_avg_score from its params.
func newADKToolTrajectory(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(ParamIgnoreArgs, ParamMatchType, ParamThreshold); err != nil {
		return nil, err
	}
	m := &adkToolTrajectory{}
	switch v := p[ParamMatchType].(type) {
	case nil:
	case string:
		mt, err := ParseMatchType(v)
		if err != nil {
			return nil, fmt.Errorf("param %q: %w", ParamMatchType, err)
		}
		m.match = mt
	default:
		n, err := p.Int(ParamMatchType, 0)
		if err != nil {
			return nil, err
		}
		if n < 0 || n > 2 {
			return nil, scorer.ParamRangeError(ParamMatchType, 0, 2, n)
		}
		m.match = MatchType(n)
	}
	var err error
	if m.ignoreArgs, err = p.Bool(ParamIgnoreArgs, false); err != nil {
		return nil, err
	}
	if m.threshold, err = p.Float(ParamThreshold, defaultTrajectoryThreshold, 0, 1); err != nil {
		return nil, err
	}
	return m, nil
}

// Name returns "tool_trajectory_avg_score".
func (*adkToolTrajectory) Name() string { return MetricToolTrajectoryAvgScore }

// Needs is empty: invocations or the reference trajectory are checked in
// Score.
func (*adkToolTrajectory) Needs() scorer.Inputs { return 0 }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (*adkToolTrajectory) Inline() {}

// Score returns the mean per-invocation match.
func (m *adkToolTrajectory) Score(_ context.Context, in *scorer.Instance) (scorer.Result, error) {
	dec := SharedDecoder(in)
	per := scorer.PerInvocation(in, scorer.InReferenceTrajectory, func(inv *scorer.Invocation) float64 {
		return m.invocation(inv.PredictedToolCalls, inv.ReferenceToolCalls, dec)
	})
	if len(per) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	score, label := scorer.MeanVerdict(per, m.threshold)
	return scorer.Result{
		Metric: MetricToolTrajectoryAvgScore,
		Score:  score,
		Label:  label,
		Details: map[string]any{
			"per_invocation": per,
			"match_type":     m.match.String(),
			"threshold":      m.threshold,
		},
	}, nil
}

// invocation scores one invocation's actual calls against the expected
// ones: 1 when they match, else 0.
func (m *adkToolTrajectory) invocation(actual, expected []agentrun.ToolCall, dec Decoder) float64 {
	return boolScore(TrajectoryMatches(Calls(actual), Calls(expected), m.match, m.ignoreArgs, dec))
}

// Semantics declares a 0–1 score that passes at the threshold parameter,
// as the label does.
func (m *adkToolTrajectory) Semantics() scorer.Semantics {
	return scorer.Ratio(scorer.HigherIsBetter, "share of invocations whose tool calls match the expected ones").
		WithPass(">=", m.threshold)
}
