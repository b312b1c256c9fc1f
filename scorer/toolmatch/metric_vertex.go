package toolmatch

import (
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Ids of the Vertex AI trajectory metrics.
const (
	MetricTrajectoryExactMatch    = "trajectory_exact_match"
	MetricTrajectoryInOrderMatch  = "trajectory_in_order_match"
	MetricTrajectoryAnyOrderMatch = "trajectory_any_order_match"
	MetricTrajectoryPrecision     = "trajectory_precision"
	MetricTrajectoryRecall        = "trajectory_recall"
	MetricTrajectorySingleToolUse = "trajectory_single_tool_use"
)

// ParamToolName is the tool trajectory_single_tool_use looks for.
const ParamToolName = "tool_name"

// newVertexTrajectory returns the factory of one of Vertex AI's
// computation-based trajectory metrics, comparing
// Instance.PredictedTrajectory with Instance.ReferenceTrajectory (Vertex
// computes them server-side; the semantics below follow its documentation
// and pin what it leaves open).
//
// Two calls are equal when their names are equal and their arguments are
// equal as parsed JSON: key order ignored, numbers by value (1 == 1.0),
// booleans distinct from numbers, empty arguments equal to {} (Vertex
// always sends a tool_input object). Arguments that are not JSON equal
// only the same text. Each reference call matches at most one predicted
// call (multiset matching).
//
//   - trajectory_exact_match: 1 when both lists have the same length and
//     match pairwise in order, else 0. Two empty lists: 1.
//   - trajectory_in_order_match: 1 when the reference calls appear in the
//     prediction in order, extra calls allowed (subsequence), else 0.
//     Empty reference: 1.
//   - trajectory_any_order_match: 1 when every reference call finds its
//     own predicted call, any order, extras allowed, else 0. Empty
//     reference: 1.
//   - trajectory_precision: matched / len(predicted). Empty prediction: 1
//     when the reference is empty too, else 0.
//   - trajectory_recall: matched / len(reference). Empty reference: 1.
//   - trajectory_single_tool_use (param tool_name, required): 1 when a
//     predicted call has that name (count and arguments ignored), else 0.
//     It needs no reference.
//
// Where the references disagree: Vertex's docs say precision counts
// "predicted actions that also appear in the reference", which read
// literally counts a repeated call twice (precision 1.0 for [A, A]
// against [A]); this implementation consumes reference calls, giving 0.5,
// consistent with recall and with "each reference call matches at most
// one predicted call". The Vertex SDK sends no trajectory for an empty
// list and the server's behaviour there is undocumented; the empty-list
// values above are this implementation's. ADK's ANY_ORDER is the same
// multiset containment; Ragas' F1 collapses duplicates instead.
//
// Needs: InPredictedTrajectory and, except for single tool use,
// InReferenceTrajectory, which a reference lookup or a dataset row sets;
// online runs without a reference are not applicable. Details:
// "predicted", "reference" and, for precision and recall, "matched".
func newVertexTrajectory(id string) scorer.Factory {
	return func(params map[string]any) (scorer.Metric, error) {
		p := scorer.Params(params)
		if id != MetricTrajectorySingleToolUse {
			if err := p.CheckKnown(); err != nil {
				return nil, err
			}
			return scorer.Func(id, scorer.InPredictedTrajectory|scorer.InReferenceTrajectory, func(in *scorer.Instance) (scorer.Result, error) {
				return vertexTrajectory(id, in)
			}), nil
		}
		if err := p.CheckKnown(ParamToolName); err != nil {
			return nil, err
		}
		name, err := p.String(ParamToolName, "")
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("param %q: required", ParamToolName)
		}
		return scorer.Func(id, scorer.InPredictedTrajectory, func(in *scorer.Instance) (scorer.Result, error) {
			details := map[string]any{"predicted": len(in.PredictedTrajectory), "tool_name": name}
			return scorer.Result{Score: boolScore(UsesTool(in.PredictedTrajectory, name)), Details: details}, nil
		}), nil
	}
}

// vertexComparison names the comparison of an instance's predicted and
// reference trajectories under JSONEqual.
type vertexComparison struct{}

// vertexTrajectory scores the comparison metric id; see newVertexTrajectory.
func vertexTrajectory(id string, in *scorer.Instance) (scorer.Result, error) {
	details := map[string]any{"predicted": len(in.PredictedTrajectory), "reference": len(in.ReferenceTrajectory)}
	// The five comparisons of one instance share the argument keys.
	c := scorer.Derive(in, vertexComparison{}, func() *Comparison {
		return Compare(in.PredictedTrajectory, in.ReferenceTrajectory, sharedArgsKey(in, JSONEqual))
	})
	var score float64
	switch id {
	case MetricTrajectoryExactMatch:
		score = boolScore(c.ExactMatch())
	case MetricTrajectoryInOrderMatch:
		score = boolScore(c.InOrderMatch())
	case MetricTrajectoryAnyOrderMatch:
		score = boolScore(c.AnyOrderMatch())
	case MetricTrajectoryPrecision:
		score = c.Precision()
		details["matched"] = c.Matched()
	case MetricTrajectoryRecall:
		score = c.Recall()
		details["matched"] = c.Matched()
	default:
		return scorer.Result{}, fmt.Errorf("unknown trajectory metric %q", id)
	}
	return scorer.Result{Score: score, Details: details}, nil
}
