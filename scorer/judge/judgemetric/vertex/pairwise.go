package vertex

import (
	"context"
	"fmt"
	"sort"
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
// Inputs: Response and the baseline column, plus the template's inputs.
// Calls: 2. Score: 1 for CANDIDATE, 0.5 for TIE, 0 for BASELINE; Label
// the pairwise_choice; Details "pairwise_choice", "position_consistent",
// "choices" (the two answers as CANDIDATE/BASELINE/TIE). The summary's
// win rates are the shares of CANDIDATE and BASELINE labels.
type pairwise struct {
	id     string
	vars   []inputVar
	tmpl   Template
	judge  judge.Judge
	newSan func() judge.Sanitizer
	// baselines finds a live run's baseline run; nil offline.
	baselines judgemetric.Baselines
}

func (m *pairwise) Name() string         { return m.id }
func (m *pairwise) JudgeName() string    { return m.judge.Name() }
func (m *pairwise) Needs() scorer.Inputs { return scorer.InResponse | needsOf(m.vars) }

// pairwiseSchema is the structured-output schema of a pairwise answer.
var pairwiseSchema = &judge.Schema{
	Name: "pairwise_choice",
	JSON: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"explanation":     map[string]any{"type": "string"},
			"pairwise_choice": map[string]any{"type": "string", "enum": []any{"A", "B", "SAME"}},
		},
		"required":             []any{"explanation", "pairwise_choice"},
		"additionalProperties": false,
	},
}

// system is the instruction and evaluation section of a pairwise prompt.
func (m *pairwise) system() string {
	var b strings.Builder
	b.WriteString("# Instruction\nYou are an expert evaluator of AI-generated text. You will be given user inputs and two responses to them, Response A and Response B, written by two AI models.\n")
	b.WriteString("First read the user inputs carefully to understand the task, then compare the two responses against the Criteria in the Evaluation section, and decide which response is better: A, B, or SAME when neither is better.\n")
	b.WriteString("Judge the content only: the order in which the responses are shown and their length must not influence you.\n\n# Evaluation\n")
	if m.tmpl.MetricDefinition != "" {
		b.WriteString("## Metric Definition\n" + m.tmpl.MetricDefinition + "\n\n")
	}
	b.WriteString("## Criteria\n")
	keys := make([]string, 0, len(m.tmpl.Criteria))
	for k := range m.tmpl.Criteria {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(k + ": " + m.tmpl.Criteria[k] + "\n")
	}
	b.WriteString("\n## Rating Rubric\n\"A\": Response A is better than Response B on the criteria.\n\"SAME\": Response A and Response B are equally good on the criteria.\n\"B\": Response B is better than Response A on the criteria.\n")
	b.WriteString("\n## Evaluation Steps\nSTEP 1: Analyze Response A against the criteria.\nSTEP 2: Analyze Response B against the criteria.\nSTEP 3: Compare the two, and choose A, B or SAME.\n")
	b.WriteString("\n# Answer Format\nAnswer with one JSON object and nothing else: {\"explanation\": \"<your comparison>\", \"pairwise_choice\": \"A\" | \"B\" | \"SAME\"}.")
	return b.String()
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
	c := judgemetric.NewCaller(m.judge, m.newSan, m.id)
	system := m.system()
	var choices [2]string
	var explanation string
	for k, baselineFirst := range []bool{true, false} {
		a, b := base, in.Response
		if !baselineFirst {
			a, b = in.Response, base
		}
		ans, err := c.Call(ctx, func(s judge.Sanitizer) *judge.Request {
			var p strings.Builder
			p.WriteString("# User Inputs and AI-generated Responses")
			if len(parts) > 0 {
				p.WriteString("\n## User Inputs\n")
				renderParts(&p, s, parts)
			}
			p.WriteString("\n\n## AI-generated Responses\n### Response A\n")
			p.WriteString(s.Untrusted(FieldResponse, a))
			p.WriteString("\n\n### Response B\n")
			p.WriteString(s.Untrusted(FieldResponse, b))
			return &judge.Request{System: system, Prompt: p.String(), Schema: pairwiseSchema}
		})
		if err != nil {
			return scorer.Result{}, err
		}
		choice, expl, err := parsePairwise(ans)
		if err != nil {
			return scorer.Result{}, err
		}
		choices[k] = resolveChoice(choice, baselineFirst)
		if k == 0 {
			explanation = expl
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
	c.Finish(&res)
	return res, nil
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

// parsePairwise reads {"explanation", "pairwise_choice": "A"|"B"|"SAME"}.
func parsePairwise(answer string) (string, string, error) {
	var a struct {
		Explanation *string `json:"explanation"`
		Choice      *string `json:"pairwise_choice"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return "", "", err
	}
	if a.Choice == nil || a.Explanation == nil {
		return "", "", judgemetric.Unparseable("answer lacks pairwise_choice or explanation")
	}
	switch c := strings.ToUpper(strings.TrimSpace(*a.Choice)); c {
	case "A", "B", "SAME":
		return c, *a.Explanation, nil
	}
	return "", "", judgemetric.Unparseable("pairwise_choice %q is not A, B or SAME", *a.Choice)
}

func pairwiseFactory(deps judgemetric.Deps, bt builtinTemplate) scorer.Factory {
	id := PairwisePrefix + bt.id
	return func(params map[string]any) (scorer.Metric, error) {
		p := scorer.Params(params)
		if err := p.CheckKnown("judge"); err != nil {
			return nil, err
		}
		j, newSan, err := deps.Resolve(id, p)
		if err != nil {
			return nil, err
		}
		return &pairwise{id: id, vars: bt.vars, tmpl: bt.tmpl, judge: j, newSan: newSan, baselines: deps.Baselines}, nil
	}
}
