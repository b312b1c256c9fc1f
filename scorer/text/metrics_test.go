package text

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/scorertest"
)

// textVector is one shared metric vector (testdata/text_vectors.json).
type textVector struct {
	Metric string `json:"metric"`
	Input  struct {
		Reference         string   `json:"reference"`
		Prediction        string   `json:"prediction"`
		UseStemmer        bool     `json:"use_stemmer"`
		SplitSummaries    bool     `json:"split_summaries"`
		SmoothMethod      string   `json:"smooth_method"`
		Tokenize          string   `json:"tokenize"`
		UseEffectiveOrder *bool    `json:"use_effective_order"`
		Candidates        []string `json:"candidates"`
		References        []string `json:"references"`
		Threshold         *float64 `json:"threshold"`
	} `json:"input"`
	Expected      float64   `json:"expected"`
	Tolerance     float64   `json:"tolerance"`
	Ambiguous     bool      `json:"ambiguous"`
	AltExpected   *float64  `json:"alt_expected"`
	PerInvocation []float64 `json:"per_invocation"`
	Source        string    `json:"source"`
	Detail        *struct {
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
	} `json:"expected_detail"`
}

// TestTextVectors runs every shared text vector through the registry and
// the Metric interface. BLEU vectors with settings the bleu metric does
// not expose (other tokenizers or smoothing) are checked in package bleu.
func TestTextVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/text_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []textVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for i, v := range vs {
		in := v.Input
		var (
			name   string
			params = map[string]any{}
			inst   = &scorer.Instance{Response: in.Prediction, Reference: in.Reference, Has: scorer.InResponse | scorer.InReference}
		)
		switch v.Metric {
		case "rouge1", "rouge2", "rougeL", "rougeLsum":
			name = MetricRouge
			params = map[string]any{ParamRougeType: v.Metric, ParamUseStemmer: in.UseStemmer, ParamSplitSummaries: in.SplitSummaries}
		case "bleu":
			if in.SmoothMethod != "exp" || in.Tokenize != "13a" {
				continue
			}
			name = MetricBLEU
			if in.UseEffectiveOrder != nil {
				params[ParamUseEffectiveOrder] = *in.UseEffectiveOrder
			}
		case "exact_match":
			name = MetricExactMatch
		case "adk_response_match_score":
			name = MetricResponseMatchScore
			if in.Threshold != nil {
				params[paramResponseMatchThreshold] = *in.Threshold
			}
			inst = &scorer.Instance{Has: scorer.InInvocations}
			for k := range in.Candidates {
				inst.Invocations = append(inst.Invocations, scorer.Invocation{Response: in.Candidates[k], Reference: in.References[k], HasReference: true})
			}
		default:
			t.Fatalf("vector %d: unexpected metric %q", i, v.Metric)
		}
		m := mustMetric(t, name, params)
		if inst.Missing(m.Needs()) != 0 {
			t.Fatalf("vector %d: %s says inputs are missing", i, name)
		}
		r, err := m.Score(context.Background(), inst)
		if errors.Is(err, scorer.ErrNotApplicable) && v.Metric == "bleu" && in.Reference == "" {
			continue
		}
		if err != nil {
			t.Fatalf("vector %d (%s): %v", i, v.Metric, err)
		}
		ran++
		ok := math.Abs(r.Score-v.Expected) <= v.Tolerance
		if !ok && v.Ambiguous && v.AltExpected != nil {
			ok = math.Abs(r.Score-*v.AltExpected) <= v.Tolerance
		}
		if !ok {
			t.Errorf("vector %d (%s, %s): %.12g, want %.12g ± %g", i, v.Metric, v.Source, r.Score, v.Expected, v.Tolerance)
		}
		if d := v.Detail; d != nil && name == MetricRouge {
			if math.Abs(r.Details["precision"].(float64)-d.Precision) > v.Tolerance ||
				math.Abs(r.Details["recall"].(float64)-d.Recall) > v.Tolerance {
				t.Errorf("vector %d: details %v, want P=%v R=%v", i, r.Details, d.Precision, d.Recall)
			}
		}
		if v.PerInvocation != nil {
			per := r.Details["per_invocation"].([]float64)
			if len(per) != len(v.PerInvocation) {
				t.Fatalf("vector %d: per_invocation %v, want %v", i, per, v.PerInvocation)
			}
			for k := range per {
				if math.Abs(per[k]-v.PerInvocation[k]) > max(v.Tolerance, 1e-12) {
					t.Errorf("vector %d: per_invocation[%d] = %v, want %v", i, k, per[k], v.PerInvocation[k])
				}
			}
			wantLabel := "failed"
			if r.Score >= *in.Threshold {
				wantLabel = "passed"
			}
			if r.Label != wantLabel {
				t.Errorf("vector %d: label %q, want %q", i, r.Label, wantLabel)
			}
		}
	}
	if ran < 45 {
		t.Fatalf("only %d vectors ran", ran)
	}
}

// TestExactMatchLiteral pins the documented choice for the ambiguous
// trailing-space vector: the literal reading (0).
func TestExactMatchLiteral(t *testing.T) {
	scorertest.Run(t, mustMetric(t, MetricExactMatch, nil), []scorertest.Case{
		{Name: "equal", In: &scorer.Instance{Response: "Paris", Reference: "Paris", Has: scorer.InResponse | scorer.InReference}, Want: 1},
		{Name: "trailing space", In: &scorer.Instance{Response: "Paris ", Reference: "Paris", Has: scorer.InResponse | scorer.InReference}, Want: 0},
		{Name: "case", In: &scorer.Instance{Response: "paris", Reference: "Paris", Has: scorer.InResponse | scorer.InReference}, Want: 0},
	})
}

func TestRougeAliases(t *testing.T) {
	in := &scorer.Instance{Reference: "testing one two", Response: "testing two", Has: scorer.InResponse | scorer.InReference}
	for name, want := range map[string]float64{
		MetricRouge1: 0.8, MetricRouge2: 0, MetricRougeL: 0.8, MetricRougeLSum: 0.8, MetricRouge: 0.8,
	} {
		m := mustMetric(t, name, nil)
		r, err := m.Score(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Score-want) > 1e-12 || r.Metric != name {
			t.Errorf("%s = %v (%s), want %v", name, r.Score, r.Metric, want)
		}
	}
	// The fixed aliases do not stem: "running" and "runs" differ.
	stemIn := &scorer.Instance{Reference: "runs", Response: "running", Has: scorer.InResponse | scorer.InReference}
	r, _ := mustMetric(t, MetricRouge1, nil).Score(context.Background(), stemIn)
	s, _ := mustMetric(t, MetricRouge, map[string]any{ParamRougeType: "rouge1", ParamUseStemmer: true}).Score(context.Background(), stemIn)
	if r.Score != 0 || s.Score != 1 {
		t.Errorf("rouge_1 = %v (want 0), rouge with stemmer = %v (want 1)", r.Score, s.Score)
	}
}

func TestTextMetricParamErrors(t *testing.T) {
	tests := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{MetricRouge, map[string]any{ParamRougeType: "rouge10"}, `param "rouge_type"`},
		{MetricRouge, map[string]any{ParamRougeType: 1}, `param "rouge_type": must be a string`},
		{MetricRouge, map[string]any{ParamUseStemmer: "yes"}, `param "use_stemmer": must be true or false`},
		{MetricRouge, map[string]any{"stem": true}, `param "stem": unknown parameter`},
		{MetricRouge1, map[string]any{ParamUseStemmer: true}, `param "use_stemmer": unknown parameter (this metric takes none)`},
		{MetricBLEU, map[string]any{ParamUseEffectiveOrder: 1}, `param "use_effective_order"`},
		{MetricResponseMatchScore, map[string]any{paramResponseMatchThreshold: 1.5}, `param "threshold": must be between 0 and 1`},
		{MetricResponseMatchScore, map[string]any{paramResponseMatchThreshold: "high"}, `param "threshold": must be a number`},
		{MetricExactMatch, map[string]any{"strip": true}, `param "strip"`},
	}
	for _, tt := range tests {
		_, err := scorertest.Registry(Metrics()).Build([]scorer.MetricConfig{{Name: tt.name, Params: tt.params}})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `metric "`+tt.name+`"`) {
			t.Errorf("%s %v: error %v, want it to contain %q", tt.name, tt.params, err, tt.want)
		}
	}
}

func TestTextMetricNeeds(t *testing.T) {
	for _, name := range []string{MetricExactMatch, MetricBLEU, MetricRouge, MetricRouge1, MetricRouge2, MetricRougeL, MetricRougeLSum} {
		m := mustMetric(t, name, nil)
		if m.Needs() != scorer.InResponse|scorer.InReference {
			t.Errorf("%s needs %b, want response and reference", name, m.Needs())
		}
		if (&scorer.Instance{Response: "x", Has: scorer.InResponse}).Missing(m.Needs()) == 0 {
			t.Errorf("%s applies without a reference", name)
		}
	}
}

func TestResponseMatchScoreApplicability(t *testing.T) {
	m := mustMetric(t, MetricResponseMatchScore, nil)
	scorertest.Run(t, m, []scorertest.Case{
		{Name: "no reference", In: &scorer.Instance{Response: "hello", Has: scorer.InResponse}, WantNA: true},
		{Name: "single", In: &scorer.Instance{Response: "hello world", Reference: "hello world", Has: scorer.InResponse | scorer.InReference}, Want: 1},
		{Name: "invocations without references", In: &scorer.Instance{
			Invocations: []scorer.Invocation{{Response: "a"}, {Response: "b"}}, Has: scorer.InInvocations}, WantNA: true},
		{Name: "only referenced invocations count", In: &scorer.Instance{
			Invocations: []scorer.Invocation{
				{Response: "hello world", Reference: "hello world", HasReference: true},
				{Response: "unrelated"},
				{Response: "", Reference: "hello", HasReference: true},
			}, Has: scorer.InInvocations}, Want: 0.5,
			Details: map[string]any{"per_invocation": []float64{1, 0}, "invocations": 2}},
	})
	r, _ := mustMetric(t, MetricResponseMatchScore, map[string]any{paramResponseMatchThreshold: 0.5}).Score(context.Background(),
		&scorer.Instance{Invocations: []scorer.Invocation{{Response: "hello world", Reference: "hello", HasReference: true}}, Has: scorer.InInvocations})
	if r.Label != "passed" || math.Abs(r.Score-2.0/3) > 1e-12 {
		t.Errorf("threshold 0.5: %+v", r)
	}
	r, _ = m.Score(context.Background(), &scorer.Instance{Invocations: []scorer.Invocation{{Response: "hello world", Reference: "hello", HasReference: true}}, Has: scorer.InInvocations})
	if r.Label != "failed" {
		t.Errorf("default threshold 0.8: label %q for %v", r.Label, r.Score)
	}
}

func TestBLEUEmptyReferenceNotApplicable(t *testing.T) {
	scorertest.Run(t, mustMetric(t, MetricBLEU, nil), []scorertest.Case{
		{Name: "empty reference", In: &scorer.Instance{Response: "x", Has: scorer.InResponse | scorer.InReference}, WantNA: true},
		{Name: "short without effective order", In: &scorer.Instance{Response: "the cat", Reference: "the cat", Has: scorer.InResponse | scorer.InReference}, Want: 1.0000000000000004},
	})
	r, _ := mustMetric(t, MetricBLEU, map[string]any{ParamUseEffectiveOrder: false}).Score(context.Background(),
		&scorer.Instance{Response: "the cat", Reference: "the cat", Has: scorer.InResponse | scorer.InReference})
	if r.Score > 1e-6 {
		t.Errorf("without effective order a 2-token response scores %v, want about 0", r.Score)
	}
}

// mustMetric builds a text metric with params.
func mustMetric(t testing.TB, name string, params map[string]any) scorer.Metric {
	return scorertest.MustMetric(t, Metrics(), name, params)
}

// TestSharedValuesOverVectors: on the instance of every text vector, each
// text metric (every ROUGE type and option) scores an instance the
// others have used exactly as a fresh one (scorertest.SharedValues).
func TestSharedValuesOverVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/text_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []textVector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	var ms []scorer.Metric
	for _, e := range Metrics() {
		ms = append(ms, mustMetric(t, e.Name, nil))
	}
	for _, typ := range []string{"rouge1", "rouge2", "rouge4", "rougeL", "rougeLsum"} {
		for _, stem := range []bool{false, true} {
			for _, split := range []bool{false, true} {
				ms = append(ms, mustMetric(t, MetricRouge, map[string]any{ParamRougeType: typ, ParamUseStemmer: stem, ParamSplitSummaries: split}))
			}
		}
	}
	ms = append(ms, mustMetric(t, MetricBLEU, map[string]any{ParamUseEffectiveOrder: false}))
	for i, v := range vs {
		in := v.Input
		newIn := func() *scorer.Instance {
			inst := &scorer.Instance{
				Response: in.Prediction, Reference: in.Reference, Has: scorer.InResponse | scorer.InReference | scorer.InInvocations,
				Invocations: []scorer.Invocation{{Response: in.Prediction, Reference: in.Reference, HasReference: true}},
			}
			for k := range in.Candidates {
				inst.Invocations = append(inst.Invocations, scorer.Invocation{Response: in.Candidates[k], Reference: in.References[k], HasReference: true})
			}
			return inst
		}
		t.Run(fmt.Sprintf("%02d_%s", i, v.Metric), func(t *testing.T) { scorertest.SharedValues(t, ms, newIn, uint64(i)) })
	}
}
