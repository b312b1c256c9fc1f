package adk

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// ParamIntermediate is hallucinations_v1's evaluate_intermediate_nl_responses:
// also judge the natural-language text parts of the events before the
// final response, each against the events before it. Default false.
const ParamIntermediate = "evaluate_intermediate_nl_responses"

// hallucinations is hallucinations_v1 (metrics.md §6.4, ADK
// hallucinations_v1.py): is each sentence of the agent's answer grounded
// in what the agent was given and observed? Each judged response (the
// final one, and with evaluate_intermediate_nl_responses the text of each
// model call before it) takes 2 calls: segmenter, then validator.
//
// Formula: step score = mean over validated sentences of 1 (supported,
// not_applicable) or 0 (unsupported, contradictory, disputed), unknown
// labels ignored; invocation score = mean of its step scores; score =
// mean of the invocation scores, over invocations that had a response.
// A step whose segmenter answer has no <sentence> blocks, or whose
// validator answer has no known label, is skipped as ADK skips it
// (counted in "skipped_steps"); when every step is skipped the result is
// an invalid_response error, never a score.
type hallucinations struct {
	base
	intermediate bool
}

func newHallucinations(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := newBase(MetricHallucinations, p, deps, ParamIntermediate)
	if err != nil {
		return nil, err
	}
	intermediate, err := p.Bool(ParamIntermediate, false)
	return &hallucinations{base: b, intermediate: intermediate}, err
}

// Needs returns InResponse: the final response is what is judged.
func (m *hallucinations) Needs() scorer.Inputs { return scorer.InResponse }

// Score runs the segmenter and the validator on every judged response.
func (m *hallucinations) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := m.Caller()
	var (
		per       []float64
		steps     int
		skipped   int
		sentences int
		labels    = map[string]int{}
		notes     []string
	)
	for _, t := range turns(in) {
		h := newHeader(in, t)
		var stepScores []float64
		events := t.events
		if events == nil {
			events = callEvents(t.calls)
		}
		for _, st := range planSteps(events, t.response, m.intermediate) {
			sc, vs, err := m.judgeStep(ctx, c, h, st)
			if judge.ClassOf(err) == judge.ClassInvalidResponse {
				skipped++ // ADK skips a step whose answers do not parse
				continue
			}
			if err != nil {
				return scorer.Result{}, err
			}
			stepScores = append(stepScores, sc)
			steps++
			sentences += len(vs)
			for _, v := range vs {
				l := strings.ToLower(strings.TrimSpace(v.Label))
				s, known := labelScores[l]
				if !known {
					labels["unknown"]++
					continue
				}
				labels[l]++
				if s == 0 {
					notes = append(notes, fmt.Sprintf("%s: %q (%s)", l, v.Sentence, v.Rationale))
				}
			}
		}
		if len(stepScores) > 0 {
			per = append(per, mean(stepScores))
		}
	}
	if len(per) == 0 {
		if skipped > 0 {
			return scorer.Result{}, judgemetric.Unparseable("no step's answers parsed (%d skipped)", skipped)
		}
		return scorer.Result{}, scorer.ErrNotApplicable
	}
	score := mean(per)
	expl := "all sentences supported or not needing attribution"
	if len(notes) > 0 {
		expl = strings.Join(notes, "\n")
	}
	return c.Finish(scorer.Result{
		Score:       score,
		Label:       m.label(score),
		Explanation: judgemetric.Explanation(expl),
		Details: map[string]any{
			"per_invocation": per,
			"steps":          steps,
			"skipped_steps":  skipped,
			"sentences":      sentences,
			"labels":         labels,
			"threshold":      m.threshold,
		},
	}), nil
}

// judgeStep segments one response and validates its sentences against
// the step's context.
func (m *hallucinations) judgeStep(ctx context.Context, c *judgemetric.Caller, h header, st step) (float64, []validation, error) {
	seg, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
		return &judge.Request{
			System: segmenterSystem,
			Prompt: fmt.Sprintf(segmenterPrompt, s.Untrusted(FieldResponse, st.response)),
		}
	})
	if err != nil {
		return 0, nil, err
	}
	sents := parseSentences(seg)
	if len(sents) == 0 {
		return 0, nil, judgemetric.Unparseable("segmenter answer has no <sentence> blocks")
	}
	// The <sentence> tags are the project's own markup: only the
	// sentences are untrusted.
	pieces := make([]judge.Piece, 0, len(sents)+1)
	for i, s := range sents {
		open := "<sentence>"
		if i > 0 {
			open = "</sentence>\n<sentence>"
		}
		pieces = append(pieces, judge.Piece{Markup: open, Text: s})
	}
	pieces = append(pieces, judge.Piece{Markup: "</sentence>"})
	val, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
		return &judge.Request{
			System: validatorSystem,
			Prompt: fmt.Sprintf(validatorPrompt, buildContext(h, st.prior, s.Untrusted), s.UntrustedPieces(FieldResponse, pieces)),
		}
	})
	if err != nil {
		return 0, nil, err
	}
	vs := parseValidations(val)
	sc, _, ok := stepScore(vs)
	if !ok {
		return 0, nil, judgemetric.Unparseable("validator answer has no sentence block with a known label")
	}
	return sc, vs, nil
}
