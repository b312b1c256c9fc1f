package adk

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// finalMatch is adk_final_response_match_v2 (metrics.md §6.3, ADK
// final_response_match_v2.py): is the agent's final answer a valid
// answer given the reference answer?
//
// Inputs: per invocation the user prompt, the final response and the
// reference; invocations without a reference are skipped, and the metric
// is not applicable when none has one (for a single-turn instance, when
// Reference is absent). Scale: {0, 1} per invocation, [0, 1] overall.
// Calls: num_samples (default 5) per invocation with a reference.
//
// Each answer is JSON {"is_the_agent_response_valid": "valid"|"invalid",
// "reasoning": ...}, optionally in a ```json fence: "valid" (any case) is
// 1, "invalid" is 0; anything else, or an answer that does not parse, is
// an invalid_response error. The samples of an invocation are combined by
// majority vote, as ADK's final_response_match_v2 aggregator does: more
// valid than invalid is 1, otherwise (ties included) 0. Score = mean over
// the judged invocations.
//
// Result: Label "passed" when score >= threshold; Confidence = mean over
// invocations of the winning side's share of the samples; Explanation =
// the reasoning of the first sample on the winning side (of the last
// invocation that failed, else of the last one); Details "per_invocation",
// "valid_votes", "num_samples".
type finalMatch struct {
	base
	samples int
}

func newFinalMatch(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	if err := p.CheckKnown(paramJudge, ParamThreshold, ParamNumSamples, judgemetric.ParamTemperature); err != nil {
		return nil, err
	}
	n, err := p.PositiveInt(ParamNumSamples, defaultNumSamples, maxNumSamples)
	if err != nil {
		return nil, err
	}
	b, err := newBase(MetricFinalResponseMatchV2, p, deps)
	if err != nil {
		return nil, err
	}
	if b.temperature, err = judgemetric.SamplingTemperature(p, n); err != nil {
		return nil, err
	}
	return &finalMatch{base: b, samples: n}, nil
}

// Needs declares nothing: applicability depends on which invocations
// carry a reference (see the type's doc).
func (m *finalMatch) Needs() scorer.Inputs { return 0 }

// finalMatchSchema is the structured-output schema of the judge answer.
var finalMatchSchema = &judge.Schema{
	Name: "final_response_match_v2",
	JSON: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"reasoning":                   map[string]any{"type": "string"},
			"is_the_agent_response_valid": map[string]any{"type": "string", "enum": []any{"valid", "invalid"}},
		},
		"required":             []any{"reasoning", "is_the_agent_response_valid"},
		"additionalProperties": false,
	},
}

// finalMatchAnswer is the judge's answer.
type finalMatchAnswer struct {
	Valid     *string `json:"is_the_agent_response_valid"`
	Reasoning string  `json:"reasoning"`
}

// parseFinalMatch returns 1 for "valid", 0 for "invalid" (trimmed, any
// case) and the reasoning; any other answer is an invalid_response error.
func parseFinalMatch(answer string) (float64, string, error) {
	var a finalMatchAnswer
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return 0, "", err
	}
	if a.Valid == nil {
		return 0, "", judgemetric.Unparseable("answer lacks is_the_agent_response_valid")
	}
	switch strings.ToLower(strings.TrimSpace(*a.Valid)) {
	case "valid":
		return 1, a.Reasoning, nil
	case "invalid":
		return 0, a.Reasoning, nil
	}
	return 0, "", judgemetric.Unparseable("is_the_agent_response_valid is %q, want valid or invalid", *a.Valid)
}

// Score samples the judge per invocation with a reference and averages
// the majority verdicts.
func (m *finalMatch) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := m.caller()
	var (
		per, shares []float64
		validVotes  []int
		expl        string
		failedSeen  bool
	)
	for _, t := range turns(in) {
		if !t.hasReference {
			continue
		}
		var votes tally
		var firstValid, firstInvalid string
		for range m.samples {
			answer, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
				return &judge.Request{
					System: finalMatchSystem,
					Prompt: fmt.Sprintf(finalMatchPrompt,
						s.Untrusted(FieldPrompt, t.user),
						s.Untrusted(FieldResponse, t.response),
						s.Untrusted(FieldReference, t.reference)),
					Schema: finalMatchSchema,
				}
			})
			if err != nil {
				return scorer.Result{}, err
			}
			sc, why, err := parseFinalMatch(answer)
			if err != nil {
				return scorer.Result{}, err
			}
			if sc == 1 {
				votes.add(verdictYes)
				if firstValid == "" {
					firstValid = why
				}
			} else {
				votes.add(verdictNo)
				if firstInvalid == "" {
					firstInvalid = why
				}
			}
		}
		sc, share, _ := votes.majority() // every sample voted
		per = append(per, sc)
		shares = append(shares, share)
		validVotes = append(validVotes, votes.yes)
		switch {
		case sc == 0:
			expl, failedSeen = firstInvalid, true
		case !failedSeen:
			expl = firstValid
		}
	}
	if len(per) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	score := mean(per)
	res := scorer.Result{
		Score:       score,
		Label:       m.label(score),
		Explanation: capText(expl, maxExplanation),
		Confidence:  mean(shares),
		Details: map[string]any{
			"per_invocation": per,
			"valid_votes":    validVotes,
			"num_samples":    m.samples,
			"threshold":      m.threshold,
		},
	}
	c.Finish(&res)
	return res, nil
}

// The final_response_match_v2 prompt, in the project's words, following
// ADK's (metrics.md §6.3): the function API spec is "None", as in ADK.
const finalMatchSystem = `You are an expert rater of AI agents. You are given a user prompt, the agent's response and a golden (reference) response. Decide whether the agent's response is valid.

The agent's response is valid when it conveys the same answer as the golden response: it contains the key information of the golden response, does not contradict it, and answers the user's prompt. Differences in wording, format, order or extra polite phrasing do not make it invalid. Missing or wrong key facts, numbers, names or conclusions make it invalid. When the golden response describes an action the agent should have taken, the agent's response must show that it was taken.

Function API spec available to the agent:
None

Think step by step, then answer with a JSON object and nothing else:
{"reasoning": "<your step-by-step reasoning>", "is_the_agent_response_valid": "valid" or "invalid"}`

const finalMatchPrompt = "User prompt:\n%s\n\nAgent response:\n%s\n\nGolden response:\n%s\n\nIs the agent response valid?"
