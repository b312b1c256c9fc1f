package vertex

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric/judgemetrictest"
)

// customParams returns valid custom pointwise params with over applied.
func customParams(over map[string]any) map[string]any {
	p := map[string]any{
		"criteria":      map[string]any{"Brevity": "The answer is short."},
		"rating_rubric": map[string]any{"1": "(Short) Short.", "0": "(Long) Long."},
	}
	for k, v := range over {
		if v == nil {
			delete(p, k)
			continue
		}
		p[k] = v
	}
	return p
}

func TestFactoryErrors(t *testing.T) {
	tests := []struct {
		name, metric, typ string
		params            map[string]any
		want              string // substring naming the param
	}{
		{"unknown param", "coherence", "", map[string]any{"threshold": 1}, `param "threshold"`},
		{"unknown judge", "coherence", "", map[string]any{"judge": "nope"}, `param "judge": unknown judge "nope"`},
		{"judge not a string", "safety_v1", "", map[string]any{"judge": 3}, `param "judge"`},
		{"num_samples zero", "general_quality_v1", "", map[string]any{"num_samples": 0}, `param "num_samples"`},
		{"num_samples too big", "safety_v1", "", map[string]any{"num_samples": 11}, `param "num_samples"`},
		{"static metric takes no rubrics", "safety_v1", "", map[string]any{"rubrics": []any{"x"}}, `param "rubrics"`},
		{"reference free needs rubrics", "final_response_reference_free_v1", "", nil, `param "rubrics": required`},
		{"rubrics not a list", "final_response_reference_free_v1", "", map[string]any{"rubrics": "x"}, `param "rubrics"`},
		{"empty rubric", "final_response_reference_free_v1", "", map[string]any{"rubrics": []any{"ok", " "}}, `param "rubrics": item 1 is empty`},
		{"empty rubric list", "general_quality_v1", "", map[string]any{"rubrics": []any{}}, `param "rubrics": empty list`},
		{"cache size negative", "text_quality_v1", "", map[string]any{"rubric_cache_size": -1}, `param "rubric_cache_size"`},
		{"no cache on static", "final_response_match_v2", "", map[string]any{"rubric_cache_size": 3}, `param "rubric_cache_size"`},
		{"claims take no samples", "hallucination_v1", "", map[string]any{"num_samples": 2}, `param "num_samples"`},
		{"custom: no criteria", "c", "pointwise", customParams(map[string]any{"criteria": nil}), `param "criteria": required`},
		{"custom: criteria not a map", "c", "pointwise", customParams(map[string]any{"criteria": "x"}), `param "criteria": must be a map`},
		{"custom: empty criterion", "c", "pointwise", customParams(map[string]any{"criteria": map[string]any{"A": ""}}), `param "criteria": value of "A" is empty`},
		{"custom: no rubric", "c", "pointwise", customParams(map[string]any{"rating_rubric": nil}), `param "rating_rubric": required`},
		{"custom: one score", "c", "pointwise", customParams(map[string]any{"rating_rubric": map[string]any{"1": "x"}}), `param "rating_rubric": rating rubric needs at least 2`},
		{"custom: non-numeric score", "c", "pointwise", customParams(map[string]any{"rating_rubric": map[string]any{"1": "x", "good": "y"}}), `param "rating_rubric": rating rubric key "good"`},
		{"custom: same score twice", "c", "pointwise", customParams(map[string]any{"rating_rubric": map[string]any{"1": "x", "1.0": "y"}}), `param "rating_rubric": rating rubric keys`},
		{"custom: rubric value not text", "c", "pointwise", customParams(map[string]any{"rating_rubric": map[any]any{1: 2, 0: "y"}}), `param "rating_rubric": value of "1"`},
		{"custom: bool key", "c", "pointwise", customParams(map[string]any{"rating_rubric": map[any]any{true: "x", 0: "y"}}), `param "rating_rubric"`},
		{"custom: variables not a list", "c", "pointwise", customParams(map[string]any{"input_variables": "prompt"}), `param "input_variables"`},
		{"custom: variable twice", "c", "pointwise", customParams(map[string]any{"input_variables": []any{"prompt", "prompt"}}), `param "input_variables": "prompt" listed twice`},
		{"custom: bad column name", "c", "pointwise", customParams(map[string]any{"input_variables": []any{"a\nb"}}), `param "input_variables"`},
		{"custom: steps not a map", "c", "pointwise", customParams(map[string]any{"evaluation_steps": []any{"x"}}), `param "evaluation_steps"`},
		{"custom: definition not text", "c", "pointwise", customParams(map[string]any{"metric_definition": 1}), `param "metric_definition"`},
		{"custom: unknown param", "c", "pointwise", customParams(map[string]any{"instruction": "x"}), `param "instruction"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := buildErr(judgemetrictest.NewJudge(), tt.metric, tt.typ, tt.params)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to contain %s", err, tt.want)
			}
		})
	}
}

func TestNoDefaultJudge(t *testing.T) {
	r := scorer.NewRegistry()
	deps := testDeps(judgemetrictest.NewJudge())
	deps.DefaultJudge = ""
	if err := Register(r, deps); err != nil {
		t.Fatal(err)
	}
	_, err := r.Build([]scorer.MetricConfig{{Name: "fluency"}})
	if err == nil || !strings.Contains(err.Error(), `param "judge"`) {
		t.Errorf("error %v", err)
	}
}

// TestCustomTemplate checks the rendering of a custom template: maps
// sorted by key, input variables in config order under their names, the
// response last, and the allowed scores stated.
func TestCustomTemplate(t *testing.T) {
	j := judgemetrictest.NewJudge()
	j.Queue(pw("-1"))
	m := build(t, j, "mine", "pointwise", map[string]any{
		"criteria":        map[string]any{"b": "second", "a": "first"},
		"rating_rubric":   map[any]any{1: "good", -1: "bad", 0.5: "(Meh) so so"},
		"input_variables": []any{"reference", "prompt"},
	})
	res, err := m.Score(context.Background(), fixture())
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != -1 || res.Label != "-1" || res.Metric != "mine" {
		t.Errorf("result %+v", res)
	}
	req := j.Requests()[0]
	for _, want := range []string{"## Criteria\na: first\nb: second\n", "## Rating Rubric\n-1: bad\n0.5: (Meh) so so\n1: good\n", "exactly one of: -1, 0.5, 1."} {
		if !strings.Contains(req.System, want) {
			t.Errorf("system lacks %q:\n%s", want, req.System)
		}
	}
	if strings.Contains(req.System, "## Metric Definition") || strings.Contains(req.System, "## Evaluation Steps") {
		t.Error("absent optional sections rendered")
	}
	ref, prompt, resp := strings.Index(req.Prompt, "### reference\n"), strings.Index(req.Prompt, "### prompt\n"), strings.Index(req.Prompt, "## AI-generated Response")
	if ref < 0 || prompt < ref || resp < prompt {
		t.Errorf("input order wrong:\n%s", req.Prompt)
	}
	j.Queue(pw("0.5"))
	if res, err := m.Score(context.Background(), fixture()); err != nil || res.Label != "Meh" {
		t.Errorf("%v %+v", err, res)
	}
}

func TestCustomMissingColumn(t *testing.T) {
	j := judgemetrictest.NewJudge()
	m := build(t, j, "mine", "pointwise", customParams(map[string]any{"input_variables": []any{"rubric_notes"}}))
	_, err := m.Score(context.Background(), fixture())
	if !errors.Is(err, scorer.ErrNotApplicable) || len(j.Requests()) != 0 {
		t.Errorf("error %v after %d calls, want not applicable without a call", err, len(j.Requests()))
	}
	in := fixture()
	in.Columns["rubric_notes"] = map[string]any{"n": 1}
	j.Queue(pw("1"))
	if _, err := m.Score(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.Requests()[0].Prompt, `<<context:K3Y>>{"n":1}<</context:K3Y>>`) {
		t.Errorf("column not rendered as JSON context:\n%s", j.Requests()[0].Prompt)
	}
}
