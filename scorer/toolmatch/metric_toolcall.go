package toolmatch

import (
	"fmt"
	"slices"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// Ids of the Vertex AI tool-call metrics.
const (
	MetricToolCallValid         = "tool_call_valid"
	MetricToolNameMatch         = "tool_name_match"
	MetricToolParameterKeyMatch = "tool_parameter_key_match"
	MetricToolParameterKVMatch  = "tool_parameter_kv_match"
)

// ParamUseStrictStringMatch is tool_parameter_kv_match's
// use_strict_string_match (Vertex ToolParameterKVMatchSpec).
const ParamUseStrictStringMatch = "use_strict_string_match"

// newVertexToolCall returns the factory of one of Vertex AI's tool-call
// metrics. The prediction (Instance.Prediction, or Instance.Response when
// no prediction was given) and the reference (Instance.Reference) are JSON texts
// {"content": "...", "tool_calls": [{"name": "...", "arguments": {...}}]};
// "arguments" may also be a string holding a JSON object. Vertex
// computes these server-side and documents little; the choices below are
// this implementation's where its docs are silent.
//
//   - tool_call_valid: 1 when the prediction is a JSON object whose
//     tool_calls holds at least one call and every call is an object with
//     a non-empty string "name" and, if present, object arguments; else 0.
//     An empty tool_calls list is invalid (as in Google's samples). Needs
//     no reference.
//   - tool_name_match: 1 when the prediction has as many calls as the
//     reference and the names match position by position; else 0. Both
//     without calls: 1.
//   - tool_parameter_key_match: calls are paired by position over
//     max(len(pred), len(ref)) (an unpaired call scores 0); each pair
//     scores the share of the reference call's argument names present in
//     the predicted call (extra predicted names are not penalised; a
//     reference call without arguments scores 1 when the prediction has
//     none either, else 0); the score is the mean. Both without calls: 1.
//     Names of the tools are not compared here (tool_name_match does).
//   - tool_parameter_kv_match: as key match, counting a name only when the
//     values are equal too: as parsed JSON with numbers by value (1 ==
//     1.0) by default, or with use_strict_string_match the values' JSON
//     text as written (1 != 1.0, key order significant).
//
// Where the references disagree or are silent: the key and kv denominator
// is the reference's argument names (the union of both sides is the other
// reading); several calls are paired by index; what Vertex's non-strict
// value matching accepts is undocumented.
//
// A prediction that is not valid tool-call JSON scores 0 on every metric
// (Details "problem"); a reference that is not valid JSON is an error.
// Needs: InReference for the three match metrics; the prediction is
// checked in Score (Prediction when InPrediction is set, else Response
// when InResponse is set, else not applicable). Details: "predicted_calls",
// "reference_calls".
func newVertexToolCall(id string) scorer.Factory {
	return func(params map[string]any) (scorer.Metric, error) {
		p := scorer.Params(params)
		allowed, need := []string{}, scorer.InReference
		switch id {
		case MetricToolParameterKVMatch:
			allowed = []string{ParamUseStrictStringMatch}
		case MetricToolCallValid:
			need = 0
		}
		if err := p.CheckKnown(allowed...); err != nil {
			return nil, err
		}
		strict, err := p.Bool(ParamUseStrictStringMatch, false)
		if err != nil {
			return nil, err
		}
		return scorer.Func(id, need, func(in *scorer.Instance) (scorer.Result, error) {
			return vertexToolCall(id, strict, in)
		}), nil
	}
}

// vertexToolCall scores the metric id; see newVertexToolCall.
func vertexToolCall(id string, strict bool, in *scorer.Instance) (scorer.Result, error) {
	var text string
	switch {
	case in.Has&scorer.InPrediction != 0:
		text = in.Prediction
	case in.Has&scorer.InResponse != 0:
		text = in.Response
	default:
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	pred, err := shared(in, text, ParseToolCallOutput)
	if err != nil {
		return scorer.Result{Score: 0, Details: map[string]any{"problem": err.Error()}}, nil
	}
	details := map[string]any{"predicted_calls": len(pred.Calls)}
	if id == MetricToolCallValid {
		if p := pred.Problem(); p != "" {
			details["problem"] = p
		}
		return scorer.Result{Score: boolScore(pred.Valid()), Details: details}, nil
	}
	ref, err := shared(in, in.Reference, ParseToolCallOutput)
	if err != nil {
		return scorer.Result{}, fmt.Errorf("reference is not a tool-call output: %w", err)
	}
	details["reference_calls"] = len(ref.Calls)
	var score float64
	switch id {
	case MetricToolNameMatch:
		score = boolScore(trajNamesMatch(pred.Calls, ref.Calls))
	case MetricToolParameterKeyMatch:
		score = PairScores(pred.Calls, ref.Calls, KeyMatch)
	case MetricToolParameterKVMatch:
		score = PairScores(pred.Calls, ref.Calls, func(p, r []Member) float64 { return KVMatch(p, r, strict) })
	default:
		return scorer.Result{}, fmt.Errorf("unknown tool-call metric %q", id)
	}
	return scorer.Result{Score: score, Details: details}, nil
}

// trajNamesMatch reports whether both lists have the same names in order.
func trajNamesMatch(pred, ref []ParsedCall) bool {
	return slices.EqualFunc(pred, ref, func(p, r ParsedCall) bool { return p.Name == r.Name })
}
