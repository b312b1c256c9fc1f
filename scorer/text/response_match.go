package text

import (
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/text/rouge"
)

// MetricResponseMatchScore is the id of Google ADK's response_match_score.
const MetricResponseMatchScore = "response_match_score"

// paramResponseMatchThreshold is response_match_score's pass mark.
const paramResponseMatchThreshold = "threshold"

// defaultResponseMatchThreshold is ADK's default for response_match_score
// (agent_evaluator.py).
const defaultResponseMatchThreshold = 0.8

// newResponseMatchScore builds Google ADK's response_match_score
// (final_response_match_v1.py RougeEvaluator).
//
// Formula: for each invocation, the ROUGE-1 F-measure with the Porter
// stemmer of the actual final response against the expected one
// (rouge-score's score(reference, response)); the score is the mean over
// invocations. Result.Label is "passed" when score >= threshold (default
// 0.8, ADK's), else "failed".
//
// Invocations: when Instance.Invocations is non-empty, those with
// HasReference are scored (a missing response counts as "", as ADK's
// empty text); the others are skipped, and with none left the metric is
// not applicable. When Invocations is empty, Response and Reference form
// one invocation, and a missing reference makes it not applicable. Needs
// therefore declares nothing and Score decides applicability. Details:
// "per_invocation" (scores in order), "invocations", "threshold".
func newResponseMatchScore(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(paramResponseMatchThreshold); err != nil {
		return nil, err
	}
	th, err := p.Float(paramResponseMatchThreshold, defaultResponseMatchThreshold, 0, 1)
	if err != nil {
		return nil, err
	}
	s, err := rouge.NewScorer("rouge1", rouge.Options{UseStemmer: true})
	if err != nil {
		return nil, err
	}
	return scorer.PerInvocationMean(MetricResponseMatchScore, scorer.InReference, th,
		"ROUGE-1 F of the responses against the references, mean over invocations",
		func(in *scorer.Instance, inv *scorer.Invocation) float64 {
			return rougeScore(in, s, inv.Reference, inv.Response).FMeasure
		},
		func(per []float64) map[string]any {
			return map[string]any{"per_invocation": per, "invocations": len(per), "threshold": th}
		}), nil
}
