package scorer

import (
	"math"
	"strings"
	"testing"
)

// inlineConst is a constant Inline metric.
type inlineConst struct{ constMetric }

func (inlineConst) Inline() {}

func TestPassRule(t *testing.T) {
	cases := []struct {
		op    string
		score float64
		want  bool
	}{
		{">=", 0.5, true}, {">=", 0.49, false}, {">=", 0.51, true},
		{">", 0.5, false}, {">", 0.51, true},
		{"<=", 0.5, true}, {"<=", 0.51, false},
		{"<", 0.5, false}, {"<", 0.49, true},
	}
	for _, c := range cases {
		p := &PassRule{Threshold: 0.5, Op: c.op}
		if got := p.Passes(c.score); got != c.want {
			t.Errorf("%v %s 0.5 = %v, want %v", c.score, c.op, got, c.want)
		}
		if v := p.Verdict(c.score); v == nil || *v != c.want {
			t.Errorf("Verdict(%v %s 0.5) = %v", c.score, c.op, v)
		}
	}
	var none *PassRule
	if none.Verdict(1) != nil {
		t.Error("no rule gave a verdict")
	}
}

func TestConfigValidateNamesSemanticsKeys(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Metrics = []MetricConfig{{Name: "ok"}, {Name: "bad", SemanticsConfig: SemanticsConfig{Pass: &PassRule{Op: "=>"}}}}
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), "metrics[1].pass.comparison") {
		t.Errorf("Validate = %v, want metrics[1].pass.comparison", err)
	}
}

func TestSemanticsConfig(t *testing.T) {
	ratio := Ratio(HigherIsBetter, "share").WithPass(">=", 1)
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		name    string
		decl    Semantics
		cfg     SemanticsConfig
		want    Semantics
		wantErr string
	}{
		{name: "kept", decl: ratio, want: ratio},
		{name: "undeclared is none", want: Semantics{Direction: DirectionNone, Unit: UnitNone, Min: math.NaN(), Max: math.NaN()}},
		{name: "threshold", decl: ratio, cfg: SemanticsConfig{Pass: &PassRule{Threshold: 0.8, Op: ">"}},
			want: Ratio(HigherIsBetter, "share").WithPass(">", 0.8)},
		{name: "rule removed", decl: ratio, cfg: SemanticsConfig{Pass: &PassRule{Op: "none"}},
			want: Ratio(HigherIsBetter, "share")},
		{name: "cel rating", cfg: SemanticsConfig{Direction: HigherIsBetter, Unit: UnitRating, Min: f(1), Max: f(5), Description: "stars"},
			want: Rating(HigherIsBetter, 1, 5, "stars")},
		{name: "unit sets its bounds", cfg: SemanticsConfig{Unit: UnitSeconds, Direction: LowerIsBetter},
			want: Semantics{Direction: LowerIsBetter, Unit: UnitSeconds, Min: 0, Max: math.NaN()}},
		{name: "rating without bounds", cfg: SemanticsConfig{Unit: UnitRating}, wantErr: "min, max: a rating needs both bounds"},
		{name: "bad direction", cfg: SemanticsConfig{Direction: "up"}, wantErr: `direction: must be`},
		{name: "bad unit", cfg: SemanticsConfig{Unit: "ms"}, wantErr: `unit: must be`},
		{name: "bad comparison", cfg: SemanticsConfig{Pass: &PassRule{Op: "=="}}, wantErr: `pass.comparison`},
		{name: "bad threshold", cfg: SemanticsConfig{Pass: &PassRule{Op: ">", Threshold: math.Inf(1)}}, wantErr: `pass.threshold`},
		{name: "min above max", cfg: SemanticsConfig{Min: f(2), Max: f(1)}, wantErr: "min: 2 is above max 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.cfg.apply(c.decl)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameSemantics(got, c.want) {
				t.Errorf("got %+v (pass %+v), want %+v (pass %+v)", got, got.Pass, c.want, c.want.Pass)
			}
		})
	}
}

// sameSemantics compares semantics, NaN bounds equal.
func sameSemantics(a, b Semantics) bool {
	eq := func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }
	if (a.Pass == nil) != (b.Pass == nil) || a.Pass != nil && *a.Pass != *b.Pass {
		return false
	}
	return a.Direction == b.Direction && a.Unit == b.Unit && eq(a.Min, b.Min) && eq(a.Max, b.Max) && a.Description == b.Description
}

// TestPassedVerdict checks that the engine gives each result the verdict
// of its metric's pass rule, as declared or configured, and none where
// there is no rule.
func TestPassedVerdict(t *testing.T) {
	r := NewRegistry()
	err := r.RegisterAll(
		Entry{Name: "errors", New: NoParams(inlineConst{constMetric{name: "errors", score: 0.25}}),
			Semantics: Ratio(LowerIsBetter, "").WithPass("<=", 0)},
		Entry{Name: "stars", New: NoParams(constMetric{name: "stars", score: 4})},
	)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := r.Build([]MetricConfig{
		{Name: "errors"},
		{Name: "lenient_errors", Type: "errors", SemanticsConfig: SemanticsConfig{Pass: &PassRule{Threshold: 0.5, Op: "<"}}},
		{Name: "stars"},
		{Name: "rated_stars", Type: "stars", SemanticsConfig: SemanticsConfig{Unit: UnitRating, Min: ptr(1.0), Max: ptr(5.0), Pass: &PassRule{Threshold: 4, Op: ">="}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ms[1].(Inline); !ok {
		t.Error("a configured Inline metric is no longer Inline")
	}
	e, _, _ := testEngine(t, DefaultConfig(), ms, nil)
	ev := e.Evaluate(t.Context(), &Instance{})
	want := map[string]*bool{"errors": ptr(false), "lenient_errors": ptr(true), "stars": nil, "rated_stars": ptr(true)}
	if len(ev.Results) != len(want) {
		t.Fatalf("results %+v", ev.Results)
	}
	for _, res := range ev.Results {
		w := want[res.Metric]
		if (w == nil) != (res.Passed == nil) || w != nil && *w != *res.Passed {
			t.Errorf("%s: passed = %v, want %v", res.Metric, fmtBool(res.Passed), fmtBool(w))
		}
	}
	// RunMetric (the judge stage's path) gives the same verdict.
	res, _, err := RunMetric(t.Context(), ms[0], &Instance{}, DefaultConfig().MetricTimeout, e.logger)
	if err != nil || res.Passed == nil || *res.Passed {
		t.Errorf("RunMetric: %+v, %v", res, err)
	}
	if s := SemanticsOf(ms[0]); s.Unit != UnitRatio || s.Direction != LowerIsBetter {
		t.Errorf("SemanticsOf(errors) = %+v", s)
	}
	if s := SemanticsOf(ms[3]); s.Unit != UnitRating || s.Min != 1 || s.Max != 5 {
		t.Errorf("SemanticsOf(rated_stars) = %+v", s)
	}
}

func fmtBool(b *bool) string {
	if b == nil {
		return "null"
	}
	if *b {
		return "true"
	}
	return "false"
}
