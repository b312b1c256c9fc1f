package catalog

import (
	"math"
	"strconv"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
)

// TestSemantics checks every built-in metric's declared direction, unit,
// bounds and pass rule against what docs/metrics.md states.
func TestSemantics(t *testing.T) {
	const (
		hi, lo, none = scorer.HigherIsBetter, scorer.LowerIsBetter, scorer.DirectionNone
	)
	type want struct {
		dir      scorer.Direction
		unit     scorer.Unit
		min, max float64
		pass     string // "op threshold", "" for none
	}
	nan := math.NaN()
	ratio := func(d scorer.Direction, pass string) want { return want{d, scorer.UnitRatio, 0, 1, pass} }
	wants := map[string]want{
		"latency":                    {lo, scorer.UnitSeconds, 0, nan, ""},
		"failure":                    ratio(lo, "<= 0"),
		"tool_call_count":            {none, scorer.UnitCount, 0, nan, ""},
		"tool_error_rate":            ratio(lo, "<= 0"),
		"repeated_tool_call_rate":    ratio(lo, ""),
		"tool_args_valid":            ratio(hi, ">= 1"),
		"unsupported_facts":          ratio(lo, "<= 0"),
		"exact_match":                ratio(hi, ">= 1"),
		"bleu":                       ratio(hi, ""),
		"rouge":                      ratio(hi, ""),
		"rouge_1":                    ratio(hi, ""),
		"rouge_2":                    ratio(hi, ""),
		"rouge_l":                    ratio(hi, ""),
		"rouge_l_sum":                ratio(hi, ""),
		"response_match_score":       ratio(hi, ">= 0.8"),
		"tool_call_valid":            ratio(hi, ">= 1"),
		"tool_name_match":            ratio(hi, ">= 1"),
		"tool_parameter_key_match":   ratio(hi, ""),
		"tool_parameter_kv_match":    ratio(hi, ""),
		"trajectory_exact_match":     ratio(hi, ">= 1"),
		"trajectory_in_order_match":  ratio(hi, ">= 1"),
		"trajectory_any_order_match": ratio(hi, ">= 1"),
		"trajectory_precision":       ratio(hi, ""),
		"trajectory_recall":          ratio(hi, ""),
		"trajectory_single_tool_use": ratio(hi, ">= 1"),
		"tool_trajectory_avg_score":  ratio(hi, ">= 1"),
		"ragas_tool_call_accuracy":   ratio(hi, ""),
		"ragas_tool_call_f1":         ratio(hi, ""),
		"cel":                        {none, scorer.UnitNone, nan, nan, ""},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	r := NewRegistry()
	for _, name := range r.Names() {
		w, ok := wants[name]
		if !ok {
			t.Errorf("%s: no expected semantics in this test", name)
			continue
		}
		params := map[string]any{}
		switch name {
		case "trajectory_single_tool_use":
			params["tool_name"] = "search"
		case "cel":
			params["expression"] = "1.0"
		}
		ms, err := r.Build([]scorer.MetricConfig{{Name: name, Params: params}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := scorer.SemanticsOf(ms[0])
		pass := ""
		if s.Pass != nil {
			pass = s.Pass.Op + " " + formatFloat(s.Pass.Threshold)
		}
		if s.Direction != w.dir || s.Unit != w.unit || !same(s.Min, w.min) || !same(s.Max, w.max) || pass != w.pass {
			t.Errorf("%s: %s %s [%v, %v] pass %q, want %s %s [%v, %v] pass %q",
				name, s.Direction, s.Unit, s.Min, s.Max, pass, w.dir, w.unit, w.min, w.max, w.pass)
		}
		if s.Description == "" && name != "cel" {
			t.Errorf("%s: no description", name)
		}
	}
	// A bool CEL expression is a verdict that passes at 1.
	ms, err := r.Build([]scorer.MetricConfig{{Name: "has_answer", Type: "cel", Params: map[string]any{"expression": "response != ''"}}})
	if err != nil {
		t.Fatal(err)
	}
	if s := scorer.SemanticsOf(ms[0]); s.Unit != scorer.UnitRatio || s.Direction != hi || s.Pass == nil || *s.Pass != (scorer.PassRule{Threshold: 1, Op: ">="}) {
		t.Errorf("bool cel: %+v", s)
	}
	// A parameter threshold is the pass rule.
	ms, err = r.Build([]scorer.MetricConfig{{Name: "response_match_score", Params: map[string]any{"threshold": 0.6}}})
	if err != nil {
		t.Fatal(err)
	}
	if p := scorer.SemanticsOf(ms[0]).Pass; p == nil || *p != (scorer.PassRule{Threshold: 0.6, Op: ">="}) {
		t.Errorf("response_match_score threshold 0.6: pass %+v", p)
	}
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
