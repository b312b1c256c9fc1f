package toolmatch

import (
	"fmt"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Ids of the Ragas tool-call metrics.
const (
	MetricRagasToolCallAccuracy = "ragas_tool_call_accuracy"
	MetricRagasToolCallF1       = "ragas_tool_call_f1"
)

// Parameters of ragas_tool_call_accuracy.
const (
	// ParamStrictOrder requires the call order to match (default true).
	ParamStrictOrder = "strict_order"
	// ParamArgComparison is how argument values are compared: "exact"
	// (default; Ragas ExactMatch on str()) or "levenshtein" (Ragas
	// NonLLMStringSimilarity with its default distance).
	ParamArgComparison = "arg_comparison"
)

// newRagasToolCallAccuracy builds Ragas ToolCallAccuracy
// (_tool_call_accuracy.py), exact to its source: see ToolCallAccuracy.
//
// Where the references disagree: Ragas compares str() of values, so 1 and
// 1.0 differ here although ADK and Ragas F1 treat them as equal; any
// extra or missing call gives 0, even with strict_order false, unlike
// ADK's IN_ORDER/ANY_ORDER and Vertex's in/any-order metrics; arguments
// get partial credit, unlike ADK. An argument-similarity metric other
// than the two built in (for example an LLM one) is not offered.
//
// Inputs: the predicted calls are Instance.PredictedTrajectory (Ragas
// concatenates the tool calls of every AI message, which is the run's
// call list); the reference calls are ReferenceTrajectory. Needs:
// InPredictedTrajectory | InReferenceTrajectory. Details: "predicted",
// "reference".
func newRagasToolCallAccuracy(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(ParamArgComparison, ParamStrictOrder); err != nil {
		return nil, err
	}
	strict, err := p.Bool(ParamStrictOrder, true)
	if err != nil {
		return nil, err
	}
	name, err := p.String(ParamArgComparison, "exact")
	if err != nil {
		return nil, err
	}
	cmp, err := ParseArgComparison(name)
	if err != nil {
		return nil, fmt.Errorf("param %q: %w", ParamArgComparison, err)
	}
	return scorer.Func(MetricRagasToolCallAccuracy, scorer.InPredictedTrajectory|scorer.InReferenceTrajectory, func(in *scorer.Instance) (scorer.Result, error) {
		pred, ref := in.PredictedTrajectory, in.ReferenceTrajectory
		return scorer.Result{
			Score:   ToolCallAccuracy(pred, ref, strict, cmp, SharedDecoder(in)),
			Details: map[string]any{"predicted": len(pred), "reference": len(ref)},
		}, nil
	}), nil
}

// ragasToolCallF1 is Ragas ToolCallF1 (_tool_call_f1.py), exact to its
// source: see ToolCallF1.
//
// Where the references disagree: both empty gives 0 here but 1 in Ragas
// ToolCallAccuracy and ADK EXACT; duplicates collapse, where ADK and the
// Vertex metrics match calls one for one. Where Ragas raises TypeError
// (a list or object argument value is unhashable), this compares the
// values by Python equality instead. Empty argument text is {}.
//
// Needs: InPredictedTrajectory | InReferenceTrajectory. Details:
// "precision", "recall".
func ragasToolCallF1(in *scorer.Instance) (scorer.Result, error) {
	f1, p, r := ToolCallF1(in.PredictedTrajectory, in.ReferenceTrajectory, sharedArgsKey(in, PythonEqual))
	return scorer.Result{Score: f1, Details: map[string]any{"precision": p, "recall": r}}, nil
}
