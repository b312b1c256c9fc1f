package vertex

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// BaselineColumn is the dataset column holding the baseline model's
// response a pairwise metric compares the row's response with, as in
// Vertex's pairwise datasets.
const BaselineColumn = "baseline_model_response"

// Pairwise choices, as Vertex reports pairwise_choice.
const (
	ChoiceCandidate = "CANDIDATE"
	ChoiceBaseline  = "BASELINE"
	ChoiceTie       = "TIE"
)

// PairwisePrefix names the pairwise form of a pointwise template:
// "pairwise_coherence".
const PairwisePrefix = "pairwise_"

// pairwise compares a candidate response (Instance.Response) with a
// baseline response (the baseline_model_response column) on a pointwise
// template's criteria, as Vertex's PairwiseMetric does: the judge says
// which response is better, A, B or SAME.
//
// Position-bias control: the judge is asked twice, the baseline first
// (A) and then second (B). The pairwise_choice is the two answers' choice
// when they agree; when they disagree (the judge preferred a position,
// not a response) it is TIE and Details "position_consistent" is false.
//
// Online (canary traffic) the baseline is the latest run of the same eval
// case and user input by the baseline release, found by Deps.Baselines
// when the run is judged; Details "baseline_trace_id" and
// "baseline_release" name it.
//
// Score: 1 for CANDIDATE, 0.5 for TIE, 0 for BASELINE; Label the
// pairwise_choice.
type pairwise struct {
	judgemetric.Base
	vars   []inputVar
	system string
	// baselines finds a live run's baseline run; nil offline.
	baselines judgemetric.Baselines
}

// newPairwise builds the pairwise form of bt.
func newPairwise(bt builtinTemplate, p scorer.Params, deps judgemetric.Deps) (scorer.Metric, error) {
	b, err := judgemetric.NewBase(PairwisePrefix+bt.id, p, deps)
	return &pairwise{Base: b, vars: bt.vars, system: pairwiseSystem(bt.tmpl), baselines: deps.Baselines}, err
}

func (m *pairwise) Needs() scorer.Inputs { return scorer.InResponse | needsOf(m.vars) }

// pairwiseSchema is the structured-output schema of a pairwise answer.
func pairwiseSchema() *judge.Schema {
	return judgemetric.ObjectSchema("pairwise_choice",
		"explanation", judgemetric.Type("string"),
		"pairwise_choice", judgemetric.Type("string", "A", "B", "SAME"))
}

// pairwiseSystem is the instruction and evaluation section of a pairwise
// prompt on t's criteria.
func pairwiseSystem(t Template) string {
	return evaluationSystem(`You are an expert evaluator of AI-generated text. You will be given user inputs and two responses to them, Response A and Response B, written by two AI models.
First read the user inputs carefully to understand the task, then compare the two responses against the Criteria in the Evaluation section, and decide which response is better: A, B, or SAME when neither is better.
Judge the content only: the order in which the responses are shown and their length must not influence you.`,
		t.MetricDefinition, t.Criteria, `"A": Response A is better than Response B on the criteria.
"SAME": Response A and Response B are equally good on the criteria.
"B": Response B is better than Response A on the criteria.`, `STEP 1: Analyze Response A against the criteria.
STEP 2: Analyze Response B against the criteria.
STEP 3: Compare the two, and choose A, B or SAME.`,
		`Answer with one JSON object and nothing else: {"explanation": "<your comparison>", "pairwise_choice": "A" | "B" | "SAME"}.`)
}

// online reports whether in is a live run whose baseline m looks up.
func (m *pairwise) online(in *scorer.Instance) bool {
	_, col := in.Columns[BaselineColumn]
	return !col && m.baselines != nil && in.Trajectory != nil
}

// Applicable checks, before a live run is sampled, that it can have a
// baseline run (scorer.Precondition).
func (m *pairwise) Applicable(in *scorer.Instance) error {
	if !m.online(in) {
		return nil
	}
	return m.baselines.Check(in)
}

// Score asks the judge twice, the baseline shown first then second.
func (m *pairwise) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	base, ok := in.Columns[BaselineColumn].(string)
	var online judgemetric.Baseline
	if m.online(in) {
		b, err := m.baselines.Find(ctx, in)
		if err != nil {
			return scorer.Result{}, err
		}
		base, online, ok = b.Response, b, true
	}
	if !ok || base == "" {
		return scorer.Result{}, fmt.Errorf("column %q: %w", BaselineColumn, scorer.ErrNotApplicable)
	}
	parts, err := resolve(in, m.vars)
	if err != nil {
		return scorer.Result{}, err
	}
	c := m.Caller()
	var choices [2]string
	var explanation string
	for k, baselineFirst := range []bool{true, false} {
		a, b := base, in.Response
		if !baselineFirst {
			a, b = in.Response, base
		}
		ans, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
			responses := []part{{heading: "Response A", field: FieldResponse, text: a}, {heading: "Response B", field: FieldResponse, text: b}}
			return &judge.Request{System: m.system, Prompt: renderInputs(s, parts, responses...), Schema: pairwiseSchema()}
		}, parsePairwise)
		if err != nil {
			return scorer.Result{}, err
		}
		choices[k] = resolveChoice(ans.choice, baselineFirst)
		if k == 0 {
			explanation = ans.explanation
		}
	}
	final, consistent := choices[0], choices[0] == choices[1]
	if !consistent {
		final = ChoiceTie
	}
	score := map[string]float64{ChoiceCandidate: 1, ChoiceTie: 0.5, ChoiceBaseline: 0}[final]
	res := scorer.Result{
		Score:       score,
		Label:       final,
		Explanation: capText(explanation, maxExplanation),
		Details: map[string]any{
			"pairwise_choice":     final,
			"position_consistent": consistent,
			"choices":             []string{choices[0], choices[1]},
		},
	}
	if online.TraceID != "" {
		res.Details["baseline_trace_id"] = online.TraceID
		res.Details["baseline_release"] = online.Version
	}
	return c.Finish(res), nil
}

// resolveChoice turns an answer's A/B/SAME into CANDIDATE, BASELINE or
// TIE for the order it was asked in.
func resolveChoice(choice string, baselineFirst bool) string {
	switch {
	case choice == "SAME":
		return ChoiceTie
	case (choice == "A") == baselineFirst:
		return ChoiceBaseline
	}
	return ChoiceCandidate
}

// pairwiseAnswer is a parsed pairwise answer.
type pairwiseAnswer struct{ choice, explanation string }

// parsePairwise reads {"explanation", "pairwise_choice": "A"|"B"|"SAME"}.
func parsePairwise(answer string) (pairwiseAnswer, error) {
	var a struct {
		Explanation *string `json:"explanation"`
		Choice      *string `json:"pairwise_choice"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return pairwiseAnswer{}, err
	}
	if a.Choice == nil || a.Explanation == nil {
		return pairwiseAnswer{}, judgemetric.Unparseable("answer lacks pairwise_choice or explanation")
	}
	switch c := strings.ToUpper(strings.TrimSpace(*a.Choice)); c {
	case "A", "B", "SAME":
		return pairwiseAnswer{c, *a.Explanation}, nil
	}
	return pairwiseAnswer{}, judgemetric.Unparseable("pairwise_choice %q is not A, B or SAME", *a.Choice)
}
