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
// answer given the reference answer? The judge is asked num_samples times
// per invocation with a reference; with none the metric is not
// applicable.
//
// The samples of an invocation are combined by majority vote, as ADK's
// final_response_match_v2 aggregator does: more valid than invalid is 1,
// otherwise (ties included) 0. Score = mean over the judged invocations.
// Explanation = the reasoning of the first sample on the winning side (of
// the last invocation that failed, else of the last one).
type finalMatch struct {
	base
	samples int
}

func newFinalMatch(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := newBase(MetricFinalResponseMatchV2, p, deps, ParamNumSamples, judgemetric.ParamTemperature)
	if err != nil {
		return nil, err
	}
	n, err := b.sampled(p)
	return &finalMatch{base: b, samples: n}, err
}

// Needs declares nothing: applicability depends on which invocations
// carry a reference (see the type's doc).
func (m *finalMatch) Needs() scorer.Inputs { return 0 }

// finalMatchSchema is the structured-output schema of the judge answer.
func finalMatchSchema() *judge.Schema {
	return judgemetric.ObjectSchema("final_response_match_v2",
		"reasoning", judgemetric.Type("string"),
		"is_the_agent_response_valid", judgemetric.Type("string", "valid", "invalid"))
}

// parseFinalMatch returns verdictYes for "valid", verdictNo for "invalid"
// (trimmed, any case) with the reasoning; any other answer is an
// invalid_response error.
func parseFinalMatch(answer string) (rubricAnswer, error) {
	var a struct {
		Valid     *string `json:"is_the_agent_response_valid"`
		Reasoning string  `json:"reasoning"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return rubricAnswer{}, err
	}
	if a.Valid == nil {
		return rubricAnswer{}, judgemetric.Unparseable("answer lacks is_the_agent_response_valid")
	}
	switch strings.ToLower(strings.TrimSpace(*a.Valid)) {
	case "valid":
		return rubricAnswer{rationale: a.Reasoning, verdict: verdictYes}, nil
	case "invalid":
		return rubricAnswer{rationale: a.Reasoning, verdict: verdictNo}, nil
	}
	return rubricAnswer{}, judgemetric.Unparseable("is_the_agent_response_valid is %q, want valid or invalid", *a.Valid)
}

// Score samples the judge per invocation with a reference and averages
// the majority verdicts.
func (m *finalMatch) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := m.Caller()
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
		var first [3]string // per verdict, the first sample's reasoning
		for range m.samples {
			a, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
				return &judge.Request{
					System: finalMatchSystem,
					Prompt: fmt.Sprintf(finalMatchPrompt,
						s.Untrusted(FieldPrompt, t.user),
						s.Untrusted(FieldResponse, t.response),
						s.Untrusted(FieldReference, t.reference)),
					Schema: finalMatchSchema(),
				}
			}, parseFinalMatch)
			if err != nil {
				return scorer.Result{}, err
			}
			votes.add(a.verdict)
			if first[a.verdict] == "" {
				first[a.verdict] = a.rationale
			}
		}
		sc, share, _ := votes.majority() // every sample voted
		per = append(per, sc)
		shares = append(shares, share)
		validVotes = append(validVotes, votes.yes)
		switch {
		case sc == 0:
			expl, failedSeen = first[verdictNo], true
		case !failedSeen:
			expl = first[verdictYes]
		}
	}
	if len(per) == 0 {
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	score := mean(per)
	return c.Finish(scorer.Result{
		Score:       score,
		Label:       m.label(score),
		Explanation: judgemetric.Explanation(expl),
		Confidence:  mean(shares),
		Details: map[string]any{
			"per_invocation": per,
			"valid_votes":    validVotes,
			"num_samples":    m.samples,
			"threshold":      m.threshold,
		},
	}), nil
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
