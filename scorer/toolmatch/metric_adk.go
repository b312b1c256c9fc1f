package toolmatch

import (
	"fmt"

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

// newADKToolTrajectory builds Google ADK's tool_trajectory_avg_score
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
func newADKToolTrajectory(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(ParamIgnoreArgs, ParamMatchType, ParamThreshold); err != nil {
		return nil, err
	}
	var match MatchType
	switch v := p[ParamMatchType].(type) {
	case nil:
	case string:
		mt, err := ParseMatchType(v)
		if err != nil {
			return nil, fmt.Errorf("param %q: %w", ParamMatchType, err)
		}
		match = mt
	default:
		n, err := p.Int(ParamMatchType, 0)
		if err != nil {
			return nil, err
		}
		if n < 0 || n > 2 {
			return nil, scorer.ParamRangeError(ParamMatchType, 0, 2, n)
		}
		match = MatchType(n)
	}
	ignoreArgs, err := p.Bool(ParamIgnoreArgs, false)
	if err != nil {
		return nil, err
	}
	eq := PythonEqual
	if ignoreArgs {
		eq = NameOnly
	}
	threshold, err := p.Float(ParamThreshold, defaultTrajectoryThreshold, 0, 1)
	if err != nil {
		return nil, err
	}
	return scorer.PerInvocationMean(MetricToolTrajectoryAvgScore, scorer.InReferenceTrajectory, threshold,
		"share of invocations whose tool calls match the expected ones",
		func(in *scorer.Instance, inv *scorer.Invocation) float64 {
			return boolScore(TrajectoryMatches(inv.PredictedToolCalls, inv.ReferenceToolCalls, match, sharedArgsKey(in, eq)))
		},
		func(per []float64) map[string]any {
			return map[string]any{"per_invocation": per, "match_type": match.String(), "threshold": threshold}
		}), nil
}
