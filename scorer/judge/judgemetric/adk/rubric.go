package adk

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// rubricMetric is rubric_based_final_response_quality_v1 (toolUse false)
// or rubric_based_tool_use_quality_v1 (toolUse true) (metrics.md §6.6, ADK
// rubric_based_evaluator.py): does the agent's answer, or its tool use,
// satisfy each configured rubric? The judge is asked num_samples times
// per invocation.
//
// Each answer's properties (see parseRubricAnswer) are matched to the
// rubrics (judgemetric.MatchRubrics; unknown ones dropped). Per
// invocation, each rubric's verdicts are combined by majority vote (more
// yes than no is 1, otherwise 0; only none verdicts is none). The score is
// the mean of ALL non-none rubric scores of all invocations pooled (not a
// mean of invocation means). An answer naming no configured rubric, or a
// case where every verdict is none, is an invalid_response error.
// Confidence is the mean share of the winning side of the yes/no votes.
type rubricMetric struct {
	base
	toolUse bool
	rubrics []rubric
	samples int
}

func newRubricMetric(id string, toolUse bool) func(scorer.Params, judgemetric.Deps) (scorer.Metric, error) {
	return func(p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
		b, err := newBase(id, p, deps, ParamNumSamples, judgemetric.ParamTemperature, ParamRubrics)
		if err != nil {
			return nil, err
		}
		rs, err := parseRubrics(p[ParamRubrics])
		if err != nil {
			return nil, err
		}
		n, err := b.sampled(p)
		return &rubricMetric{base: b, toolUse: toolUse, rubrics: rs, samples: n}, err
	}
}

// Needs returns the fields the rubric prompt is built from.
func (m *rubricMetric) Needs() scorer.Inputs {
	if m.toolUse {
		return scorer.InPrompt | scorer.InPredictedTrajectory
	}
	return scorer.InPrompt | scorer.InResponse
}

// Score samples the judge num_samples times per invocation and pools the
// majority verdicts.
func (m *rubricMetric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := m.Caller()
	system := rubricSystem(m.toolUse, m.rubrics)
	texts := make([]string, len(m.rubrics))
	for i, r := range m.rubrics {
		texts[i] = r.Text
	}
	ts := turns(in)
	var (
		pooled   []float64
		shares   []float64
		per      = make([]any, len(ts))
		byRubric = make([][]float64, len(m.rubrics))
		votes    = make([]tally, len(m.rubrics))
		verdicts []scorer.Verdict
	)
	for ti, t := range ts {
		h := newHeader(in, t)
		counts := make([]tally, len(m.rubrics))
		first := make([][3]string, len(m.rubrics)) // per rubric and verdict, the first rationale
		for range m.samples {
			answer, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
				return &judge.Request{System: system, Prompt: rubricPrompt(m.toolUse, h, s.Untrusted)}
			})
			if err != nil {
				return scorer.Result{}, err
			}
			as := parseRubricAnswer(answer)
			props := make([]string, len(as))
			for i, a := range as {
				props[i] = a.property
			}
			match := judgemetric.MatchRubrics(texts, props, normalizeRubric)
			if !slices.ContainsFunc(match, func(k int) bool { return k >= 0 }) {
				return scorer.Result{}, judgemetric.Unparseable("rubric answer has no Property/Rationale/Verdict block naming a configured rubric")
			}
			for ai, a := range as {
				if k := match[ai]; k >= 0 {
					counts[k].add(a.verdict)
					if first[k][a.verdict] == "" {
						first[k][a.verdict] = a.rationale
					}
				}
			}
		}
		var invScores []float64
		for k, r := range m.rubrics {
			if counts[k] == (tally{}) { // not named by any sample
				continue
			}
			votes[k] = votes[k].plus(counts[k])
			sc, share, ok := counts[k].majority()
			if !ok {
				continue
			}
			invScores = append(invScores, sc)
			pooled = append(pooled, sc)
			shares = append(shares, share)
			byRubric[k] = append(byRubric[k], sc)
			reason := first[k][verdictNo]
			if sc == 1 {
				reason = first[k][verdictYes]
			}
			if len(ts) > 1 {
				reason = fmt.Sprintf("invocation %d: %s", ti+1, reason)
			}
			verdicts = append(verdicts, scorer.Verdict{Rubric: r.Text, Pass: sc == 1, Reason: judgemetric.Explanation(reason)})
		}
		if len(invScores) > 0 {
			per[ti] = mean(invScores)
		}
	}
	if len(pooled) == 0 {
		return scorer.Result{}, judgemetric.Unparseable("no rubric received a yes or no verdict")
	}
	score := mean(pooled)
	rubricScores := make(map[string]any, len(m.rubrics))
	voteCounts := make(map[string]any, len(m.rubrics))
	for k, r := range m.rubrics {
		if len(byRubric[k]) > 0 {
			rubricScores[r.ID] = mean(byRubric[k])
		}
		voteCounts[r.ID] = map[string]int{"yes": votes[k].yes, "no": votes[k].no, "none": votes[k].none}
	}
	return c.Finish(scorer.Result{
		Score:       score,
		Label:       m.label(score),
		Explanation: judgemetric.Explanation(explainVerdicts(verdicts)),
		Confidence:  mean(shares),
		Verdicts:    verdicts,
		Details: map[string]any{
			"rubric_scores":  rubricScores,
			"per_invocation": per,
			"votes":          voteCounts,
			"num_samples":    m.samples,
			"threshold":      m.threshold,
		},
	}), nil
}

// explainVerdicts lists the failed rubrics with their reasons, or says
// that all passed.
func explainVerdicts(vs []scorer.Verdict) string {
	var failed []string
	for _, v := range vs {
		if !v.Pass {
			failed = append(failed, "not met: "+v.Rubric+": "+v.Reason)
		}
	}
	if len(failed) == 0 {
		return "all rubrics met"
	}
	return strings.Join(failed, "\n")
}

// ParamRubrics lists the rubrics of a rubric metric: each item a string
// (its id is then "rubric_<n>", 1-based) or a map {rubric_id, text}.
const ParamRubrics = "rubrics"

// rubric is one configured rubric.
type rubric struct {
	ID   string
	Text string
}

// parseRubrics reads the rubrics parameter. It is required and not
// empty; ids and (case-insensitive) texts must be unique.
func parseRubrics(v any) ([]rubric, error) {
	items, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, fmt.Errorf("param %q: required (a list of rubric texts or {rubric_id, text} maps)", ParamRubrics)
		}
		return nil, fmt.Errorf("param %q: must be a list, got %T", ParamRubrics, v)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("param %q: at least one rubric is required", ParamRubrics)
	}
	out := make([]rubric, 0, len(items))
	ids := make(map[string]bool, len(items))
	texts := make(map[string]bool, len(items))
	for i, it := range items {
		var r rubric
		switch x := it.(type) {
		case string:
			r = rubric{ID: fmt.Sprintf("rubric_%d", i+1), Text: x}
		case map[string]any:
			for k := range x {
				if k != "rubric_id" && k != "text" {
					return nil, fmt.Errorf("param %q: item %d: unknown key %q (allowed: rubric_id, text)", ParamRubrics, i, k)
				}
			}
			id, ok1 := x["rubric_id"].(string)
			text, ok2 := x["text"].(string)
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("param %q: item %d: rubric_id and text must be strings", ParamRubrics, i)
			}
			r = rubric{ID: id, Text: text}
		default:
			return nil, fmt.Errorf("param %q: item %d: must be a string or a {rubric_id, text} map, got %T", ParamRubrics, i, it)
		}
		r.ID = strings.TrimSpace(r.ID)
		if r.ID == "" {
			return nil, fmt.Errorf("param %q: item %d: empty rubric_id", ParamRubrics, i)
		}
		if strings.TrimSpace(r.Text) == "" {
			return nil, fmt.Errorf("param %q: item %d: empty text", ParamRubrics, i)
		}
		if strings.ContainsAny(r.Text, "\r\n") {
			return nil, fmt.Errorf("param %q: item %d: text must be one line (the judge echoes it on a \"Property:\" line)", ParamRubrics, i)
		}
		if ids[r.ID] {
			return nil, fmt.Errorf("param %q: duplicate rubric_id %q", ParamRubrics, r.ID)
		}
		key := normalizeRubric(r.Text)
		if texts[key] {
			return nil, fmt.Errorf("param %q: duplicate rubric text %q", ParamRubrics, r.Text)
		}
		ids[r.ID], texts[key] = true, true
		out = append(out, r)
	}
	return out, nil
}
